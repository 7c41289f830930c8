import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail the test SMTP server accepted. */
export type ReceivedMail = {
  from: string;
  to: string[];
  /** The message as sent (headers and encoded body). */
  raw: string;
  subject: string;
  /** The body decoded from quoted-printable (nodemailer's encoding of long text lines). */
  body: string;
  messageId: string;
};

const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A refusal the server gives instead of accepting: at RCPT TO (the envelope) or after DATA. */
export type Refusal = { code: number; message: string; at: 'rcpt' | 'data' };

/**
 * A real SMTP server (the smtp-server library) on 127.0.0.1, on a port of the system's choosing,
 * speaking the protocol over a socket. It records what it accepts, can be told to refuse
 * (`refuseWith`), to require a login, and can go away (`stop`) and come back on the same port
 * (`start` again).
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Every RCPT TO seen, accepted or not. */
  readonly attempts: string[] = [];
  port = 0;
  refusal: Refusal | null = null;
  /** How long the server takes to accept a message after its DATA (a slow server). */
  acceptDelayMs = 0;
  private server: SMTPServer | undefined;
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(private readonly login?: { user: string; password: string }) {}

  static async start(options: { login?: { user: string; password: string } } = {}): Promise<TestSmtpServer> {
    const s = new TestSmtpServer(options.login);
    await s.start();
    return s;
  }

  /** The AppConfig.email that sends here (no STARTTLS: the server offers none). */
  emailConfig() {
    return { host: '127.0.0.1', port: this.port, useTls: false, user: this.login?.user ?? null, password: this.login?.password ?? null, noreplyAddress: 'noreply@acme.test' };
  }

  refuseWith(refusal: Refusal | null): void {
    this.refusal = refusal;
  }

  /** Listens (again, on the same port once it had one). */
  async start(): Promise<void> {
    const error = (refusal: Refusal) => Object.assign(new Error(refusal.message), { responseCode: refusal.code });
    this.server = new SMTPServer({
      logger: false,
      disabledCommands: this.login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !this.login,
      allowInsecureAuth: true,
      closeTimeout: 50,
      onAuth: (auth, _session, callback) => {
        if (this.login && auth.username === this.login.user && auth.password === this.login.password) return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onRcptTo: (address, _session, callback) => {
        this.attempts.push(address.address);
        if (this.refusal?.at === 'rcpt') return callback(error(this.refusal));
        return callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => setTimeout(() => {
          if (this.refusal?.at === 'data') return callback(error(this.refusal));
          const raw = Buffer.concat(chunks).toString('utf8');
          const [head, ...rest] = raw.split(/\r?\n\r?\n/);
          const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: header('Subject'),
            body: decodeQuotedPrintable(rest.join('\n\n')),
            messageId: header('Message-ID'),
          });
          callback();
          this.wakeWaiters();
        }, this.acceptDelayMs));
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = ((server.server as { address(): AddressInfo }).address()).port;
  }

  /** Goes away: stops listening and drops open connections (clients see the connection close). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `count` mails have been accepted in all (fails after `timeoutMs`). */
  waitForMails(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    if (this.received.length >= count) return Promise.resolve(this.received);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the SMTP server received ${this.received.length} mails, expected ${count}`)), timeoutMs);
      this.waiters.push({ count, resolve: () => { clearTimeout(timer); resolve(this.received); } });
    });
  }

  private wakeWaiters(): void {
    const ready = this.waiters.filter((w) => this.received.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.received.length < w.count);
    for (const w of ready) w.resolve();
  }
}

/** Polls `check` until it returns a value other than undefined (fails after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
