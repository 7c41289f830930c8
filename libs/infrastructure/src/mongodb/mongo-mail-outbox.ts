import { MongoServerError, type Collection, type Db } from 'mongodb';
import type { MailOutboxPort, OutboxMail, OutboxStatus, OutgoingMail } from '@app/application';

type OutboxDoc = {
  _id: string;
  kind: string;
  status: OutboxStatus;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  sent_at: number | null;
  last_error: string | null;
  mail: OutgoingMail;
};

const DUPLICATE_KEY = 11000;

const toMail = (d: OutboxDoc): OutboxMail => ({
  ...d.mail,
  id: d._id,
  kind: d.kind,
  status: d.status,
  attempts: d.attempts,
  createdAt: d.created_at,
  nextAttemptAt: d.next_attempt_at,
  sentAt: d.sent_at,
  lastError: d.last_error,
});

/**
 * The outbox in MongoDB's `mail_outbox` collection (`_id` = the mail's id), beside the read models
 * but never touched by their copies or rebuilds. A claim is `findOneAndUpdate` on one due document,
 * which MongoDB applies atomically (two API instances or workers never claim one mail); a round of
 * claims repeats it up to the limit. Insert with a duplicate `_id` fails with E11000: enqueueing is
 * idempotent.
 */
export class MongoMailOutbox implements MailOutboxPort {
  private readonly outbox: Collection<OutboxDoc>;
  private indexed: Promise<unknown> | undefined;

  constructor(db: Db) {
    this.outbox = db.collection<OutboxDoc>('mail_outbox');
  }

  private ensureIndexes(): Promise<unknown> {
    this.indexed ??= Promise.all([this.outbox.createIndex({ status: 1, next_attempt_at: 1 }), this.outbox.createIndex({ created_at: -1 })]);
    return this.indexed;
  }

  async enqueue(mail: OutgoingMail & { id: string; kind: string }, now: number): Promise<boolean> {
    await this.ensureIndexes();
    const { id, kind, ...content } = mail;
    try {
      await this.outbox.insertOne({ _id: id, kind, status: 'pending', attempts: 0, created_at: now, next_attempt_at: now, sent_at: null, last_error: null, mail: content });
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  async claimDue(now: number, leaseMs: number, limit: number): Promise<OutboxMail[]> {
    await this.ensureIndexes();
    const claimed: OutboxMail[] = [];
    while (claimed.length < limit) {
      // Driver 6+: resolves to the document itself (returnDocument 'after'), or null when none is due.
      const doc = await this.outbox.findOneAndUpdate(
        { status: { $in: ['pending', 'sending'] }, next_attempt_at: { $lte: now } },
        { $set: { status: 'sending', next_attempt_at: now + leaseMs }, $inc: { attempts: 1 } },
        { sort: { next_attempt_at: 1, created_at: 1 }, returnDocument: 'after' },
      );
      if (!doc) break;
      claimed.push(toMail(doc));
    }
    return claimed.sort((a, b) => a.createdAt - b.createdAt);
  }

  async markSent(id: string, now: number): Promise<void> {
    await this.outbox.updateOne({ _id: id, status: 'sending' }, [
      { $set: { status: 'sent', sent_at: now, last_error: null, mail: { to: '$mail.to', from: '$mail.from', fromName: '$mail.fromName', subject: '$mail.subject', text: '' } } },
    ]);
  }

  async markRetry(id: string, nextAttemptAt: number, error: string): Promise<void> {
    await this.outbox.updateOne({ _id: id, status: 'sending' }, { $set: { status: 'pending', next_attempt_at: nextAttemptAt, last_error: error } });
  }

  async markFailed(id: string, now: number, error: string): Promise<void> {
    await this.outbox.updateOne({ _id: id, status: 'sending' }, [
      // $literal: in a pipeline a string starting with `$` would be read as a field path.
      { $set: { status: 'failed', next_attempt_at: now, last_error: { $literal: error }, mail: { to: '$mail.to', from: '$mail.from', fromName: '$mail.fromName', subject: '$mail.subject', text: '' } } },
    ]);
  }

  async get(id: string): Promise<OutboxMail | null> {
    const doc = await this.outbox.findOne({ _id: id });
    return doc ? toMail(doc) : null;
  }

  async list(options: { limit?: number; status?: OutboxStatus } = {}): Promise<OutboxMail[]> {
    const docs = await this.outbox
      .find(options.status ? { status: options.status } : {})
      .sort({ created_at: -1, _id: -1 })
      .limit(options.limit ?? 100)
      .toArray();
    return docs.map(toMail);
  }

  async nextDueAt(): Promise<number | null> {
    const doc = await this.outbox.find({ status: { $in: ['pending', 'sending'] } }).sort({ next_attempt_at: 1 }).limit(1).next();
    return doc?.next_attempt_at ?? null;
  }

  async close(): Promise<void> {}
}
