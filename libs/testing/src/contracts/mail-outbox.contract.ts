import type { MailOutboxPort, OutgoingMail } from '@app/application';

export type MailOutboxFixture = { outbox: MailOutboxPort; cleanup(): Promise<void> };

/** The behaviour every MailOutboxPort adapter must have (durable, idempotent, claims by lease). */
export function mailOutboxContract(adapterName: string, open: () => Promise<MailOutboxFixture>) {
  describe(`MailOutboxPort contract: ${adapterName}`, () => {
    let fixture: MailOutboxFixture;
    let outbox: MailOutboxPort;
    // Times unique to each test (far from each other), so that adapters sharing a database do not
    // see each other's due mails.
    let base = 1_000_000_000_000 + (Date.now() % 1_000_000) * 1_000_000;
    const nextBase = () => (base += 10_000_000_000);
    let n = 0;
    const mail = (over: Partial<OutgoingMail & { id: string; kind: string }> = {}) => ({
      id: `m-${Date.now()}-${++n}`,
      kind: 'test',
      to: 'hamlet@acme.test',
      from: 'noreply@acme.test',
      subject: 'Hello',
      text: 'secret link https://x/confirm/abc',
      ...over,
    });
    beforeAll(async () => {
      fixture = await open();
      outbox = fixture.outbox;
    });
    afterAll(async () => fixture.cleanup());

    /** Takes every mail due at `now` out of the way (claimed, then failed), so a test sees only its own. */
    const drain = async (now: number) => {
      while ((await outbox.claimDue(now, 1, 100)).length > 0);
      for (const m of await outbox.list({ status: 'sending', limit: 1000 })) await outbox.markFailed(m.id, now, 'drained');
    };

    it('queues a mail as pending, due at once, with its content', async () => {
      const t = nextBase();
      const m = mail({ fromName: 'Zulip Account Security', html: '<p>hi</p>' });
      expect(await outbox.enqueue(m, t)).toBe(true);
      expect(await outbox.get(m.id)).toEqual({
        ...m,
        status: 'pending',
        attempts: 0,
        createdAt: t,
        nextAttemptAt: t,
        sentAt: null,
        lastError: null,
      });
    });

    it('queues an id once: the second enqueue changes nothing', async () => {
      const t = nextBase();
      const m = mail();
      expect(await outbox.enqueue(m, t)).toBe(true);
      expect(await outbox.enqueue({ ...m, subject: 'Other' }, t + 5)).toBe(false);
      expect(await outbox.get(m.id)).toMatchObject({ subject: 'Hello', createdAt: t });
    });

    it('claims due mails only, oldest first, once each, and counts the attempt', async () => {
      const t = nextBase();
      await drain(t);
      const a = mail();
      const b = mail();
      const later = mail();
      await outbox.enqueue(a, t);
      await outbox.enqueue(b, t + 1);
      await outbox.enqueue(later, t + 1_000);
      const claimed = await outbox.claimDue(t + 10, 60_000, 10);
      expect(claimed.map((c) => c.id)).toEqual([a.id, b.id]);
      expect(claimed[0]).toMatchObject({ status: 'sending', attempts: 1, nextAttemptAt: t + 10 + 60_000, text: a.text });
      // Claimed mails are not claimed again while the claim holds.
      expect(await outbox.claimDue(t + 20, 60_000, 10)).toEqual([]);
      expect((await outbox.claimDue(t + 1_000, 60_000, 10)).map((c) => c.id)).toEqual([later.id]);
    });

    it('respects the limit of a round', async () => {
      const t = nextBase();
      await drain(t);
      for (let i = 0; i < 3; i++) await outbox.enqueue(mail(), t + i);
      expect(await outbox.claimDue(t + 10, 1_000, 2)).toHaveLength(2);
      expect(await outbox.claimDue(t + 10, 1_000, 2)).toHaveLength(1);
    });

    it('claims a mail again once its claim lapsed (its process died while sending)', async () => {
      const t = nextBase();
      await drain(t);
      const m = mail();
      await outbox.enqueue(m, t);
      expect(await outbox.claimDue(t, 1_000, 10)).toHaveLength(1);
      expect(await outbox.claimDue(t + 999, 1_000, 10)).toEqual([]);
      const again = await outbox.claimDue(t + 1_000, 1_000, 10);
      expect(again).toEqual([expect.objectContaining({ id: m.id, attempts: 2, status: 'sending' })]);
    });

    it('never hands one mail to two concurrent rounds', async () => {
      const t = nextBase();
      await drain(t);
      const ids = [];
      for (let i = 0; i < 20; i++) {
        const m = mail();
        ids.push(m.id);
        await outbox.enqueue(m, t);
      }
      const rounds = await Promise.all(Array.from({ length: 5 }, () => outbox.claimDue(t + 1, 60_000, 6)));
      const claimed = rounds.flat().map((m) => m.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.sort()).toEqual([...ids].sort());
    });

    it('marks a sent mail sent and forgets its body (the link in it is a secret)', async () => {
      const t = nextBase();
      await drain(t);
      const m = mail({ html: '<a href="https://x/confirm/abc">confirm</a>' });
      await outbox.enqueue(m, t);
      await outbox.claimDue(t, 60_000, 10);
      await outbox.markSent(m.id, t + 5);
      const sent = await outbox.get(m.id);
      expect(sent).toMatchObject({ status: 'sent', sentAt: t + 5, to: m.to, subject: m.subject, text: '', attempts: 1, lastError: null });
      expect(sent?.html).toBeUndefined();
      expect(await outbox.claimDue(t + 10_000_000, 60_000, 10)).toEqual([]);
      expect((await outbox.list({ status: 'sent', limit: 1000 })).map((x) => x.id)).toContain(m.id);
    });

    it('puts a mail back with its error and next time after a temporary failure', async () => {
      const t = nextBase();
      await drain(t);
      const m = mail();
      await outbox.enqueue(m, t);
      await outbox.claimDue(t, 60_000, 10);
      await outbox.markRetry(m.id, t + 30_000, '421 try later');
      expect(await outbox.get(m.id)).toMatchObject({ status: 'pending', nextAttemptAt: t + 30_000, lastError: '421 try later', attempts: 1, text: m.text });
      expect(await outbox.nextDueAt()).toBeLessThanOrEqual(t + 30_000);
      expect(await outbox.claimDue(t + 29_999, 60_000, 10)).toEqual([]);
      expect(await outbox.claimDue(t + 30_000, 60_000, 10)).toEqual([expect.objectContaining({ id: m.id, attempts: 2 })]);
    });

    it('records a refused mail as failed, without its body, and never claims it again', async () => {
      const t = nextBase();
      await drain(t);
      const m = mail();
      await outbox.enqueue(m, t);
      await outbox.claimDue(t, 60_000, 10);
      await outbox.markFailed(m.id, t + 1, '550 no such user');
      expect(await outbox.get(m.id)).toMatchObject({ status: 'failed', lastError: '550 no such user', text: '' });
      expect(await outbox.claimDue(t + 10_000_000_000, 60_000, 10)).toEqual([]);
      expect((await outbox.list({ status: 'failed', limit: 1000 })).map((x) => x.id)).toContain(m.id);
    });

    it('ignores outcomes for a mail that is not claimed (a lapsed claim another process took over and finished)', async () => {
      const t = nextBase();
      await drain(t);
      const m = mail();
      await outbox.enqueue(m, t);
      await outbox.claimDue(t, 60_000, 10);
      await outbox.markSent(m.id, t + 1);
      await outbox.markRetry(m.id, t + 2, 'late');
      await outbox.markFailed(m.id, t + 3, 'late');
      expect(await outbox.get(m.id)).toMatchObject({ status: 'sent', sentAt: t + 1, lastError: null });
    });

    it('lists the most recent mails first', async () => {
      const t = nextBase();
      const a = mail();
      const b = mail();
      await outbox.enqueue(a, t);
      await outbox.enqueue(b, t + 1);
      const listed = (await outbox.list({ limit: 2 })).map((x) => x.id);
      expect(listed).toEqual([b.id, a.id]);
      expect(await outbox.get('no-such-mail')).toBeNull();
    });
  });
}
