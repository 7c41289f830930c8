/** A mail as the server composes it: one recipient (Zulip sends one mail per address). */
export type OutgoingMail = {
  to: string;
  /** The sender's address (NOREPLY_EMAIL_ADDRESS unless the mail says otherwise). */
  from: string;
  /** The sender's display name ("Zulip Account Security"). */
  fromName?: string;
  subject: string;
  text: string;
  html?: string;
};

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** A mail in the outbox. Times are milliseconds since the epoch. */
export type OutboxMail = OutgoingMail & {
  /** Chosen by the writer; enqueueing the same id again is a no-op (a retried command queues once). */
  id: string;
  /** What the mail is (`confirm_new_email`), for logs and the operators' listing. */
  kind: string;
  status: OutboxStatus;
  /** Sending attempts so far (a claim counts as one). */
  attempts: number;
  createdAt: number;
  /** When a pending mail may next be tried; when a claimed (sending) mail's claim lapses. */
  nextAttemptAt: number;
  sentAt: number | null;
  lastError: string | null;
};

/**
 * The durable outbox of outgoing mail: a store of its own, not events, because mails carry secrets
 * (confirmation links) that must never enter the log (docs/security.md). Embedded: a SQLite file in
 * DATA_DIR; servers: a MongoDB collection. Delivery (MailDelivery) claims due mails, hands each to
 * the SMTP server, and records the outcome:
 *
 * - at least once: a claim is a lease; a process that dies while sending leaves the mail claimed
 *   until `nextAttemptAt`, after which any process claims it again;
 * - at most once after a hand-off where that can be avoided: a claim is atomic (two processes never
 *   hold one mail), and `markSent` follows the SMTP server's acceptance at once. Only a crash
 *   between the two sends a mail twice.
 * - a sent mail keeps its envelope (to, subject, times) but loses its body: the link in it is a secret.
 */
export interface MailOutboxPort {
  /** Queues a mail due at once; false when a mail with this id is already there (nothing changes). */
  enqueue(mail: OutgoingMail & { id: string; kind: string }, now: number): Promise<boolean>;
  /**
   * Claims up to `limit` mails that are pending and due, or whose claim has lapsed, oldest due
   * first: each becomes `sending`, its attempts go up by one, and its claim lasts until
   * `now + leaseMs`. Two callers never receive the same mail from one round of claims.
   */
  claimDue(now: number, leaseMs: number, limit: number): Promise<OutboxMail[]>;
  /** The SMTP server accepted it: `sent`, body dropped. Only a claimed (`sending`) mail changes. */
  markSent(id: string, now: number): Promise<void>;
  /** A temporary failure: back to `pending`, due at `nextAttemptAt`. Only a claimed mail changes. */
  markRetry(id: string, nextAttemptAt: number, error: string): Promise<void>;
  /** Refused for good (or out of attempts): `failed`, body dropped. Only a claimed mail changes. */
  markFailed(id: string, now: number, error: string): Promise<void>;
  /** One mail, or null. */
  get(id: string): Promise<OutboxMail | null>;
  /** The most recent mails first (operators, tests). */
  list(options?: { limit?: number; status?: OutboxStatus }): Promise<OutboxMail[]>;
  /** The earliest `nextAttemptAt` of a pending or sending mail, or null when nothing waits. */
  nextDueAt(): Promise<number | null>;
  close(): Promise<void>;
}

export const MAIL_OUTBOX = Symbol('MAIL_OUTBOX');
