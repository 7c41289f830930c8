import { createTransport } from 'nodemailer';
import { MailDeliveryError, type MailTransportPort, type OutboxMail } from '@app/application';
import type { AppConfig } from '@app/config';
import { messageFields } from './mail-message';

/** The SMTP server's refusals of the envelope (MAIL FROM, RCPT TO) and of the message (DATA). */
const REFUSAL_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

type NodemailerError = Error & { code?: string; responseCode?: number; response?: string };

/**
 * What a failed hand-off means: a 5xx reply to the envelope or the message is the server's final
 * word (RFC 5321 §4.2.1) and the mail is not tried again; a 4xx reply, an unreachable or vanished
 * server, a timeout or a failed login are tried again later (a wrong password is fixed by the
 * operator, and the mails then go out).
 */
export function classifySmtpError(error: unknown): MailDeliveryError {
  const e = error as NodemailerError;
  const code = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  const permanent = code !== undefined && code >= 500 && code < 600 && REFUSAL_CODES.has(e.code ?? '');
  const detail = e?.response ?? e?.message ?? String(error);
  return new MailDeliveryError(`${e?.code ?? 'ERROR'}: ${detail}`, permanent, code);
}

/**
 * Mail through an SMTP server with nodemailer, from Zulip's settings: EMAIL_USE_TLS requires
 * STARTTLS (Django's meaning; false never attempts it), EMAIL_HOST_USER/PASSWORD log in when set.
 * A pool of connections, reused between mails. The timeouts keep one attempt well inside the
 * outbox's claim (MAIL_CLAIM_MS), so a claim never lapses while its mail is still being sent.
 */
export class SmtpMailTransport implements MailTransportPort {
  readonly description: string;
  private readonly transporter;

  constructor(email: AppConfig['email']) {
    this.description = `smtp://${email.host}:${email.port}`;
    this.transporter = createTransport({
      pool: true,
      maxConnections: 2,
      host: email.host!,
      port: email.port,
      secure: false,
      requireTLS: email.useTls,
      ignoreTLS: !email.useTls,
      ...(email.user ? { auth: { user: email.user, pass: email.password ?? '' } } : {}),
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    });
  }

  async send(mail: OutboxMail): Promise<void> {
    try {
      await this.transporter.sendMail(messageFields(mail));
    } catch (error) {
      throw classifySmtpError(error);
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
