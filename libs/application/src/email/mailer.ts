import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { MailOutboxPort } from '../ports/mail-outbox.port';
import { MAIL_OUTBOX } from '../ports/mail-outbox.port';
import type { RandomPort } from '../ports/random.port';
import { APP_CONFIG, RANDOM } from '../ports/tokens';
import { MailDelivery } from './mail-delivery';

/** A mail a command wants sent (Zulip's send_email arguments). */
export type MailRequest = {
  /** The template's name in Zulip's terms (`confirm_new_email`, `notify_change_in_email`). */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the sender (Zulip's from_name). */
  fromName?: string;
  /** The sender's address; NOREPLY_EMAIL_ADDRESS by default. */
  from?: string;
  /**
   * An id that makes queueing idempotent (a retried command queues once); random by default.
   * Never derive it from a secret: it is logged.
   */
  id?: string;
};

/**
 * What command handlers call to send mail (Zulip's send_email): the mail is written to the durable
 * outbox before the call returns, and MailDelivery sends it (here, or in the worker).
 */
@Injectable()
export class Mailer {
  constructor(
    @Inject(MAIL_OUTBOX) private readonly outbox: MailOutboxPort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly delivery: MailDelivery,
  ) {}

  /** Queues the mail; returns its outbox id. */
  async send(request: MailRequest): Promise<string> {
    const id = request.id ?? this.random.uuid();
    await this.outbox.enqueue(
      {
        id,
        kind: request.kind,
        to: request.to,
        from: request.from ?? this.config.email.noreplyAddress,
        ...(request.fromName ? { fromName: request.fromName } : {}),
        subject: request.subject,
        text: request.text,
        ...(request.html ? { html: request.html } : {}),
      },
      Date.now(),
    );
    this.delivery.wake();
    return id;
  }
}
