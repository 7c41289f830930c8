import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import type { MailOutboxPort, OutboxMail } from '../ports/mail-outbox.port';
import { MailDeliveryError, type MailTransportPort } from '../ports/mail-transport.port';
import { APP_CONFIG, LOGGER } from '../ports/tokens';
import { MAIL_OUTBOX } from '../ports/mail-outbox.port';
import { MAIL_TRANSPORT } from '../ports/mail-transport.port';

/**
 * How long a claim lasts: a process that dies while sending leaves its mails to others after
 * this. Well above one attempt's longest run (the SMTP transport's timeouts add up to under 2 min).
 */
export const MAIL_CLAIM_MS = 5 * 60_000;
/**
 * How the outbox retries a mail the SMTP server could not take: after 30 s, then twice as long each
 * time up to an hour between attempts, for 60 attempts (about two and a half days of an SMTP server
 * away), then the mail is recorded as failed. Tests shorten it, and the claim (AppConfig.mailRetry).
 */
export const MAIL_RETRY_POLICY = { firstDelayMs: 30_000, maxDelayMs: 3_600_000, maxAttempts: 60, pollMs: 1_000, claimMs: MAIL_CLAIM_MS };
/** Mails claimed per round. */
const BATCH = 10;

/** The wait before attempt `attempts + 1`, after `attempts` attempts failed (capped exponential). */
export const retryDelayMs = (attempts: number, policy: { firstDelayMs: number; maxDelayMs: number }): number =>
  Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));

/**
 * Sends the outbox's mails, in the process that runs the background jobs (RUN_SCHEDULED_JOBS: the
 * single process, or apps/worker in the split layout; API processes beside a worker only queue).
 * A round claims the due mails, hands each to the transport and records the outcome: sent; refused
 * for good (a 5xx reply: failed, never retried); or tried again later with backoff (a 4xx reply, the
 * SMTP server away). Rounds run when a mail is queued in this process, when the earliest retry is
 * due, and every `pollMs` for mails queued by other processes. Mails left claimed by a process that
 * died are claimed again once their claim lapses (MAIL_CLAIM_MS): a mail is sent at least once.
 */
@Injectable()
export class MailDelivery implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly policy: typeof MAIL_RETRY_POLICY;
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    @Inject(MAIL_OUTBOX) private readonly outbox: MailOutboxPort,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransportPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.policy = { ...MAIL_RETRY_POLICY, ...config.mailRetry };
  }

  onApplicationBootstrap(): void {
    if (!this.config.runScheduledJobs) return;
    this.started = true;
    if (!this.config.email.host && this.config.env === 'production') {
      this.logger.warn({ folder: this.transport.description }, 'EMAIL_HOST is not set: outgoing mail is written to this folder, not sent (docs/email.md)');
    }
    // Whatever waits from before the last stop (or was left claimed by a crash) goes out now.
    this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Whether this process sends mail (else another process's MailDelivery does). */
  get active(): boolean {
    return this.started && !this.stopped;
  }

  /** Runs a round soon (a mail was queued); rounds never overlap. */
  wake(): void {
    if (!this.active) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.rounds().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        void this.armTimer();
      }
    });
  }

  /** Resolves when the round in progress (if any) is over (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async rounds(): Promise<void> {
    try {
      // Round after round while rounds find full batches.
      while (!this.stopped && (await this.round()) === BATCH);
    } catch (error) {
      this.logger.error({ err: error }, 'the mail outbox could not be read; trying again shortly');
    }
  }

  /**
   * One round: up to BATCH due mails, each claimed just before it is sent (a claim taken for a whole
   * batch could lapse behind a slow SMTP server before its turn, and another process would send it
   * too); returns how many it sent or tried.
   */
  private async round(): Promise<number> {
    let handled = 0;
    while (handled < BATCH && !this.stopped) {
      const [mail] = await this.outbox.claimDue(Date.now(), this.policy.claimMs, 1);
      if (!mail) break;
      await this.deliver(mail);
      handled++;
    }
    return handled;
  }

  private async deliver(mail: OutboxMail): Promise<void> {
    const log = { mailId: mail.id, kind: mail.kind, attempt: mail.attempts, transport: this.transport.description };
    let failure: MailDeliveryError;
    try {
      await this.transport.send(mail);
      await this.outbox.markSent(mail.id, Date.now());
      this.logger.info(log, 'mail sent');
      return;
    } catch (error) {
      failure = error instanceof MailDeliveryError ? error : new MailDeliveryError(error instanceof Error ? error.message : String(error), false);
    }
    if (failure.permanent) {
      await this.outbox.markFailed(mail.id, Date.now(), failure.message);
      this.logger.error({ ...log, error: failure.message }, 'mail refused by the SMTP server; not retried');
    } else if (mail.attempts >= this.policy.maxAttempts) {
      await this.outbox.markFailed(mail.id, Date.now(), `gave up after ${mail.attempts} attempts: ${failure.message}`);
      this.logger.error({ ...log, error: failure.message }, 'mail not sent after the last attempt; given up');
    } else {
      const delay = retryDelayMs(mail.attempts, this.policy);
      await this.outbox.markRetry(mail.id, Date.now() + delay, failure.message);
      this.logger.warn({ ...log, error: failure.message, retryInMs: delay }, 'mail not sent; will retry');
    }
  }

  /** The next round: at the earliest due retry or lapsed claim, and at least every pollMs. */
  private async armTimer(): Promise<void> {
    if (!this.active) return;
    let wait = this.policy.pollMs;
    try {
      const due = await this.outbox.nextDueAt();
      if (due !== null) wait = Math.max(0, Math.min(wait, due - Date.now()));
    } catch {
      // The outbox is away: the poll interval, and the next round logs the error.
    }
    if (!this.active || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }
}
