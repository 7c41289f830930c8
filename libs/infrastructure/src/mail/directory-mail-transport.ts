import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { MailTransportPort, OutboxMail } from '@app/application';
import { messageFields } from './mail-message';

/** What the folder keeps of a mail beside its `.eml`, for the /emails page. */
export type FolderMail = {
  id: string;
  kind: string;
  to: string;
  from: string;
  fromName?: string;
  subject: string;
  text: string;
  html?: string;
  /** ISO time the mail was queued. */
  date: string;
  /** The `.eml` file's name in the folder. */
  file: string;
};

/** File names sort by time: `<ms since epoch, 13 digits>-<outbox id>`. */
const baseName = (mail: OutboxMail) => `${String(mail.createdAt).padStart(13, '0')}-${mail.id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

/**
 * Mail without an SMTP server (EMAIL_HOST unset): each mail becomes `<name>.eml` (the message as
 * an SMTP server would have received it, built by nodemailer) and `<name>.json` in
 * `DATA_DIR/emails`, owner-only (they hold confirmation links). Zulip's development server keeps
 * its mails in a folder the same way and lists them at /emails.
 */
export class DirectoryMailTransport implements MailTransportPort {
  readonly description: string;
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly dir: string) {
    this.description = dir;
  }

  async send(mail: OutboxMail): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const name = baseName(mail);
    const info = await this.composer.sendMail(messageFields(mail));
    writeFileSync(join(this.dir, `${name}.eml`), info.message as Buffer, { mode: 0o600 });
    const entry: FolderMail = {
      id: mail.id,
      kind: mail.kind,
      to: mail.to,
      from: mail.from,
      ...(mail.fromName ? { fromName: mail.fromName } : {}),
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      date: new Date(mail.createdAt).toISOString(),
      file: `${name}.eml`,
    };
    // The listing's entry last: a mail is listed once its message is complete.
    writeFileSync(join(this.dir, `${name}.json`), JSON.stringify(entry, null, 2), { mode: 0o600 });
  }

  async close(): Promise<void> {}
}

/** The mails in a DirectoryMailTransport's folder, newest first (the /emails page). */
export class MailFolder {
  constructor(readonly dir: string) {}

  list(limit = 200): FolderMail[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names
      .sort()
      .reverse()
      .slice(0, limit)
      .flatMap((n) => {
        try {
          return [JSON.parse(readFileSync(join(this.dir, n), 'utf8')) as FolderMail];
        } catch {
          return [];
        }
      });
  }

  /** The raw message of a listed mail, or null (names outside the folder are refused). */
  raw(file: string): Buffer | null {
    if (!/^[0-9]{13}-[A-Za-z0-9_.-]+\.eml$/.test(file) || file.includes('..')) return null;
    try {
      return readFileSync(join(this.dir, file));
    } catch {
      return null;
    }
  }

  /** Removes every mail (Zulip's /emails/clear). */
  clear(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
