/**
 * Mail survives a crash (docs/email.md): a process sending the outbox is killed with SIGKILL while
 * the SMTP server is taking its mails; the next process sends every mail, and sends again at most
 * the one that was in flight (handed over, not yet recorded as sent).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { makeTempDir } from '@app/testing';
import { TestSmtpServer } from '../support/smtp-test-server';

jest.setTimeout(120_000);

const ROOT = resolve(__dirname, '..', '..');
const COUNT = 40;

type Sender = { child: ChildProcess; lines: Record<string, unknown>[]; exited: Promise<void> };

function startSender(dir: string, port: number): Sender {
  const child = spawn(process.execPath, ['-r', join(__dirname, 'register-swc.js'), join(__dirname, 'mail-crash-worker.ts'), dir, String(port), String(COUNT)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  return { child, lines, exited: new Promise((r) => child.on('exit', () => r())) };
}

const until = async (check: () => boolean, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

it('a sending process killed mid-stream: the next one sends every mail, at most the one in flight twice', async () => {
  const dir = makeTempDir('team-chat-mail-crash-');
  const smtp = await TestSmtpServer.start();
  smtp.acceptDelayMs = 15;
  const senders: Sender[] = [];
  try {
    const first = startSender(dir.path, smtp.port);
    senders.push(first);
    await until(() => smtp.received.length >= 10, '10 mails accepted by the first sender');
    first.child.kill('SIGKILL');
    await first.exited;
    const recordedBeforeKill = new Set(first.lines.filter((l) => l.sent).map((l) => l.sent as string));
    const acceptedBeforeKill = smtp.received.length;
    expect(acceptedBeforeKill).toBeLessThan(COUNT);

    const second = startSender(dir.path, smtp.port);
    senders.push(second);
    const ids = () => new Set(smtp.received.map((m) => /<(crash-\d+)@/.exec(m.messageId)?.[1]));
    await until(() => ids().size === COUNT, `all ${COUNT} mails`);
    await new Promise((r) => setTimeout(r, 300));

    const counts = new Map<string, number>();
    for (const m of smtp.received) {
      const id = /<(crash-\d+)@/.exec(m.messageId)![1];
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    // Only a mail the first process handed over without recording it can come twice.
    expect(twice.length).toBeLessThanOrEqual(1);
    for (const id of twice) expect(recordedBeforeKill.has(id)).toBe(false);
    // Nothing the first process recorded as sent was sent again by the second.
    const resent = second.lines.filter((l) => l.sent && recordedBeforeKill.has(l.sent as string));
    expect(resent).toEqual([]);
  } finally {
    for (const s of senders) s.child.kill('SIGKILL');
    await Promise.all(senders.map((s) => s.exited));
    await smtp.stop();
    dir.remove();
  }
});
