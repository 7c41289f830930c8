import type { OutboxMail } from './mail-outbox.port';

/**
 * Why a hand-off failed. `permanent`: the SMTP server refused the mail for good (a 5xx reply to the
 * envelope or the message), and trying again would be refused again; anything else (a 4xx reply,
 * the server unreachable, a dropped connection, a failed login) is worth another try later.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

/**
 * Hands one mail to whatever carries it: an SMTP server (nodemailer), or a folder of files when no
 * SMTP server is configured. Resolves once the carrier has accepted the mail; rejects with a
 * MailDeliveryError otherwise.
 */
export interface MailTransportPort {
  /** What it is, for the logs: `smtp://host:port` or the folder's path. */
  readonly description: string;
  send(mail: OutboxMail): Promise<void>;
  close(): Promise<void>;
}

export const MAIL_TRANSPORT = Symbol('MAIL_TRANSPORT');
