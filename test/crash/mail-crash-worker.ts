/**
 * A sending process for the mail crash spec, killed with SIGKILL while it sends. Run with
 *   node -r ./test/crash/register-swc.js test/crash/mail-crash-worker.ts <dataDir> <smtpPort> <count>
 *
 * Queues `count` mails (ids crash-0 …, so that a second run queues nothing new), prints {queued},
 * then sends the outbox with the real MailDelivery and SMTP transport, printing {sent: id} after each
 * mail the outbox records as sent. Claims last 500 ms, so a successor takes over quickly.
 */
import 'reflect-metadata';
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { MailDelivery } from '@app/application/email/mail-delivery';
import { openSqlite } from '@app/infrastructure/embedded/sqlite';
import { SqliteMailOutbox } from '@app/infrastructure/embedded/sqlite-mail-outbox';
import { SmtpMailTransport } from '@app/infrastructure/mail/smtp-mail-transport';
import { testConfig } from '@app/testing/test-config';

const emit = (message: object) => writeSync(1, `${JSON.stringify(message)}\n`);

async function main(): Promise<void> {
  const [dir, port, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const email = { host: '127.0.0.1', port, useTls: false, user: null, password: null, noreplyAddress: 'noreply@acme.test' };
  const config = testConfig(dir, { email, mailRetry: { firstDelayMs: 20, maxDelayMs: 100, maxAttempts: 1000, pollMs: 50, claimMs: 500 } });
  const outbox = new SqliteMailOutbox(openSqlite(join(dir, 'mail-outbox.sqlite')));
  for (let i = 0; i < count; i++) {
    await outbox.enqueue({ id: `crash-${i}`, kind: 'crash', to: `user${i}@acme.test`, from: email.noreplyAddress, subject: `Mail ${i}`, text: `Body ${i}` }, Date.now());
  }
  emit({ queued: count });
  // Reports each outcome the outbox records, after it is recorded.
  const markSent = outbox.markSent.bind(outbox);
  outbox.markSent = async (id, now) => {
    await markSent(id, now);
    emit({ sent: id });
  };
  const delivery = new MailDelivery(outbox, new SmtpMailTransport(config.email), config, pino({ level: 'silent' }));
  delivery.onApplicationBootstrap();
  setInterval(() => undefined, 1_000);
}

void main();
