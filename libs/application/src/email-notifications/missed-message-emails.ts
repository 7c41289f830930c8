import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import {
  type EmailNotificationTrigger,
  MESSAGE_FLAG_BITS,
  type MessageContentEdited,
  type MessageSent,
  VISIBILITY_POLICY,
  type VisibilityPolicy,
  emailNotificationTrigger,
  includeRealmNameInSubject,
  isPresenceIdle,
  missedMessageDueAt,
} from '@app/domain';
import { Mailer } from '../email/mailer';
import { USER_TOPICS, type UserTopicDocument, userTopicDocumentId } from '../messages/message.documents';
import { MessageQueries } from '../messages/message.queries';
import type { ClockPort } from '../ports/clock.port';
import type { AllSubscription, EventStorePort, GlobalPosition, RecordedEvent } from '../ports/event-store.port';
import { PRESENCE_STORE, type PresenceStorePort } from '../ports/presence-store.port';
import type { ReadStorePort, WriteOperation } from '../ports/read-store.port';
import { APP_CONFIG, CLOCK, EVENT_STORE, LOGGER, READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { MutedUserQueries } from '../muted-users/muted-user.queries';
import { RealmQueries } from '../realms/realm.queries';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { CachedDocuments } from '../shared/cached-documents';
import { SUBSCRIPTIONS, type SubscriptionDocument, subscriptionDocumentId } from '../subscriptions/subscription.documents';
import { actorFromUser } from '../users/user-format';
import { UserQueries } from '../users/user.queries';
import {
  MISSED_MESSAGE_EMAILS,
  MISSED_MESSAGE_EMAILS_CHECKPOINT,
  MISSED_MESSAGE_EMAILS_COLLECTION,
  type MissedMessageEmailDocument,
  missedMessageEmailId,
} from './missed-message-emails.documents';
import { type MissedMessage, missedMessageMail } from './missed-message.mails';
import { isContentKeyMissing } from '../erasure/content-key-missing-error';

/** Zulip's MissedMessageWorker.CHECK_FREQUENCY_SECONDS: due batches are looked for this often. */
export const MISSED_MESSAGE_CHECK_MS = 5_000;
/** Due rows handled per round (a round repeats while it finds a full one). */
const ROUND = 1_000;
/** Subscriptions (and topic policies) of recipients kept in memory. */
const RECIPIENT_DOCUMENTS_CACHED = 20_000;

/** A message that may notify its recipients: a send, or an edit that adds mentions. */
type Notice = {
  realmId: number;
  messageId: number;
  /** Who sent or edited it: never notified. */
  actingUserId: number;
  /** The message's sender (mutes are of the sender). */
  senderId: number;
  direct: boolean;
  channel: { streamId: number; topic: string } | null;
  /** Users who may be notified. */
  candidates: number[];
  mentionedUserIds: number[];
  streamWildcardMentioned: boolean;
  topicWildcardMentionedUserIds: number[];
  edit: boolean;
};

const sentNotice = (d: MessageSent['data']): Notice => ({
  realmId: d.realmId,
  messageId: d.messageId,
  actingUserId: d.senderId,
  senderId: d.senderId,
  direct: d.recipient.type === 'direct',
  channel: d.recipient.type === 'stream' ? { streamId: d.recipient.streamId, topic: d.recipient.topic } : null,
  candidates: d.recipientIds,
  mentionedUserIds: d.mentionedUserIds,
  streamWildcardMentioned: d.streamWildcardMentioned,
  topicWildcardMentionedUserIds: d.topicWildcardMentionedUserIds,
  edit: false,
});

/**
 * Missed-message email notifications (docs/email.md, "Missed messages"), in the process that runs
 * the background jobs (RUN_SCHEDULED_JOBS: the single process, or apps/worker):
 *
 * - a reactor follows the log from its checkpoint: for each MessageSent it decides, for every
 *   recipient, whether the message would be mailed to them (Zulip's email triggers) and whether
 *   they are away now (no active presence ping for OFFLINE_THRESHOLD_SECS); each such message
 *   joins the user's pending batch (missed_message_emails, due when the batch's first message is
 *   `email_notifications_batching_period_seconds` old), committed with the checkpoint at once;
 * - every few seconds, due batches are mailed: the messages the user has not read meanwhile (and
 *   can still read), one mail per conversation, queued in the outbox with ids derived from the
 *   batch, so a batch mailed again after a crash queues nothing new; then the rows go.
 *
 * API processes queue nothing: the decision is the worker's, from the log.
 */
@Injectable()
export class MissedMessageEmails implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription: AllSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Reactor batches and mailing rounds run one at a time (a batch's due time reads the pending rows). */
  private chain: Promise<unknown> = Promise.resolve();
  private handledUpTo: GlobalPosition = -1n;
  private waiters: { position: GlobalPosition; resolve: () => void }[] = [];
  /**
   * The recipients' subscriptions and topic policies, read for every recipient of every message,
   * kept while their collections do not change (rarely, next to messages; a store without change
   * stamps is read every time).
   */
  private readonly subscriptions: CachedDocuments<SubscriptionDocument>;
  private readonly topicPolicies: CachedDocuments<UserTopicDocument>;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(PRESENCE_STORE) private readonly presence: PresenceStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly users: UserQueries,
    private readonly settings: UserSettingsQueries,
    private readonly mutedUsers: MutedUserQueries,
    private readonly realms: RealmQueries,
    private readonly messages: MessageQueries,
    private readonly mailer: Mailer,
  ) {
    this.subscriptions = new CachedDocuments(readStore, SUBSCRIPTIONS, RECIPIENT_DOCUMENTS_CACHED);
    this.topicPolicies = new CachedDocuments(readStore, USER_TOPICS, RECIPIENT_DOCUMENTS_CACHED);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runScheduledJobs) return;
    await this.readStore.ensureCollection(MISSED_MESSAGE_EMAILS_COLLECTION);
    // From the checkpoint on; a first start begins at the head (old messages are not mailed).
    const after = (await this.readStore.getCheckpoint(MISSED_MESSAGE_EMAILS_CHECKPOINT)) ?? (await this.events.headPosition());
    this.follow(after);
    this.timer = setInterval(() => void this.sendDue().catch(() => undefined), MISSED_MESSAGE_CHECK_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.close();
    this.subscription = undefined;
    await this.chain.catch(() => undefined);
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  /** Resolves once the reactor has handled the log up to `position` (tests). */
  handledThrough(position: GlobalPosition | undefined): Promise<void> {
    if (position === undefined || position <= this.handledUpTo || !this.subscription) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ position, resolve }));
  }

  /** The messages waiting to be mailed (operators, tests). */
  pending(userId?: number): Promise<MissedMessageEmailDocument[]> {
    return this.readStore.find<MissedMessageEmailDocument>(MISSED_MESSAGE_EMAILS, {
      where: userId === undefined ? {} : { user_id: userId },
      orderBy: [{ field: 'scheduled_timestamp', direction: 'asc' }],
    });
  }

  /** Mails every batch due now (MissedMessageWorker.maybe_send_batched_emails); returns how many messages it looked at. */
  sendDue(): Promise<number> {
    return this.serially(async () => {
      let total = 0;
      for (;;) {
        const handled = await this.sendRound();
        total += handled;
        if (handled < ROUND || this.stopped) return total;
      }
    });
  }

  /**
   * Runs the work after the previous one; a failure ensures the collection and tries once more: a
   * rebuild of every read model switches to a fresh copy of the read store, which lacks this
   * collection until it is ensured there (the rows of the old copy are lost with it: docs/email.md).
   */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const attempt = () =>
      work().catch(async (error: unknown) => {
        if (this.stopped) throw error;
        await this.readStore.ensureCollection(MISSED_MESSAGE_EMAILS_COLLECTION);
        return work();
      });
    const run = this.chain.then(attempt, attempt);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private follow(after: GlobalPosition | undefined): void {
    if (after !== undefined) this.handledUpTo = after;
    const subscription = this.events.subscribeToAll({ after, batchSize: 500 }, (batch) => this.serially(() => this.react(batch)));
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopped || this.subscription !== subscription) return;
        // A sealed event without its key reads the same on every retry: stop instead of spinning every second.
        if (isContentKeyMissing(error)) return void this.logger.error({ err: error }, `missed-message emails: the reactor stopped: ${error.message}`);
        this.logger.error({ err: error }, 'missed-message emails: the reactor stopped on an error; resubscribing');
        setTimeout(() => {
          if (!this.stopped) this.follow(this.handledUpTo < 0n ? undefined : this.handledUpTo);
        }, 1000).unref();
      },
    );
  }

  /** One batch of the log: the pending rows its messages add, committed with the checkpoint. */
  private async react(batch: RecordedEvent[]): Promise<void> {
    if (batch.length === 0) return;
    const ops: WriteOperation[] = [];
    const dueByUser = new Map<number, number>();
    for (const recorded of batch) {
      let notice: Notice | null = null;
      if (recorded.type === 'MessageSent') notice = sentNotice((recorded as unknown as MessageSent).data);
      else if (recorded.type === 'MessageContentEdited') notice = await this.editNotice((recorded as unknown as MessageContentEdited).data);
      if (!notice) continue;
      for (const doc of await this.missedBy(notice, dueByUser)) {
        ops.push({ type: 'put', id: missedMessageEmailId(doc.user_id, doc.message_id), doc, position: recorded.position });
      }
    }
    const position = batch[batch.length - 1].position;
    await this.readStore.commit({
      writes: ops.length > 0 ? [{ collection: MISSED_MESSAGE_EMAILS, ops }] : [],
      checkpoints: [{ name: MISSED_MESSAGE_EMAILS_CHECKPOINT, position }],
    });
    this.handledUpTo = position;
    const ready = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const w of ready) w.resolve();
  }

  /**
   * The recipients who would be mailed this message and are away now (process_message_event:
   * is_email_notifiable with idle = presence idle), each with the row joining their batch.
   */
  private async missedBy(d: Notice, dueByUser: Map<number, number>): Promise<MissedMessageEmailDocument[]> {
    const candidates = d.candidates.filter((id) => id !== d.actingUserId);
    if (candidates.length === 0) return [];
    const channel = d.channel;
    const [settings, subscriptions, policies] = await Promise.all([
      this.settings.settingsOfMany(candidates, { timezone: false }), // eligibility and batching need no time zone
      channel ? this.documentsOf(this.subscriptions, SUBSCRIPTIONS, candidates.map((id) => subscriptionDocumentId(id, channel.streamId))) : [],
      channel ? this.documentsOf(this.topicPolicies, USER_TOPICS, candidates.map((id) => userTopicDocumentId(id, channel.streamId, channel.topic))) : [],
    ]);
    const subscriptionOf = new Map(subscriptions.map((s) => [s.user_id, s]));
    const policyOf = new Map(policies.map((p) => [p.user_id, p.visibility_policy as VisibilityPolicy]));
    const mentioned = new Set(d.mentionedUserIds);
    const topicWildcard = new Set(d.topicWildcardMentionedUserIds);
    const trigger = (userId: number, isBot: boolean, senderMuted: boolean, mentions = true): EmailNotificationTrigger | null => {
      const s = settings.get(userId);
      const sub = subscriptionOf.get(userId);
      if (!s) return null;
      return emailNotificationTrigger({
        userId,
        senderId: d.actingUserId,
        isBot,
        senderMuted,
        direct: d.direct,
        mentioned: mentions && mentioned.has(userId),
        streamWildcardMentioned: mentions && d.streamWildcardMentioned,
        topicWildcardMentioned: mentions && topicWildcard.has(userId),
        settings: s,
        ...(sub ? { subscription: sub } : {}),
        visibilityPolicy: policyOf.get(userId) ?? VISIBILITY_POLICY.INHERIT,
      });
    };
    // An edit that adds a mention notifies only those the message did not notify when sent
    // (maybe_enqueue_notifications_for_message_update: not for channel or followed-topic email).
    const eligible = (userId: number) => trigger(userId, false, false) !== null && !(d.edit && trigger(userId, false, false, false) !== null);
    const now = this.clock.now().getTime();
    const rows: MissedMessageEmailDocument[] = [];
    const rowsOf = d.edit ? await this.userMessages.flagsForUsers(candidates, [d.messageId]) : null;
    // The settings first (one read for everyone); users, mutes and presence only for those left.
    for (const userId of candidates.filter(eligible)) {
      // An edit notifies only users who received the message.
      if (rowsOf && !rowsOf.get(userId)?.has(d.messageId)) continue;
      const [user, muted, presence] = await Promise.all([
        this.users.byId(d.realmId, userId),
        this.mutedUsers.mutedUserIds(userId),
        this.presence.get(userId),
      ]);
      if (!user?.is_active) continue;
      const why = trigger(userId, user.is_bot, muted.has(d.senderId));
      if (!why || !isPresenceIdle(presence?.lastActiveTime ?? null, now / 1000)) continue;
      let pendingDue = dueByUser.get(userId) ?? null;
      if (pendingDue === null) {
        const [pending] = await this.readStore.find<MissedMessageEmailDocument>(MISSED_MESSAGE_EMAILS, { where: { user_id: userId }, limit: 1 });
        pendingDue = pending?.scheduled_timestamp ?? null;
      }
      const due = missedMessageDueAt(pendingDue, now, settings.get(userId)!.email_notifications_batching_period_seconds);
      dueByUser.set(userId, due);
      rows.push({ user_id: userId, realm_id: d.realmId, message_id: d.messageId, trigger: why, scheduled_timestamp: due });
    }
    return rows;
  }

  /** The documents of these ids that exist, through the cache. */
  private async documentsOf<D>(cache: CachedDocuments<D>, collection: string, ids: string[]): Promise<D[]> {
    const found = await cache.getMany(ids, async (missing) => new Map((await this.readStore.getMany<D>(collection, missing)).map((s) => [s.id, s.doc])));
    return [...found.values()].filter((doc): doc is D => doc !== null);
  }

  /**
   * An edit of a message's content (process_message_update_event): the users it newly mentions
   * (personally or by a topic wildcard; not prior_mention_user_ids), with the message's current
   * place. The sender of the message is the one their mutes are checked against; the editor is
   * never notified.
   */
  private async editNotice(d: MessageContentEdited['data']): Promise<Notice | null> {
    const before = new Set([...(d.prevMentionedUserIds ?? []), ...(d.prevTopicWildcardMentionedUserIds ?? [])]);
    const candidates = [...new Set([...d.mentionedUserIds, ...d.topicWildcardMentionedUserIds])].filter((id) => !before.has(id));
    if (candidates.length === 0) return null;
    const message = await this.messages.deliveredMessage(d.realmId, d.messageId);
    if (!message) return null;
    return {
      realmId: d.realmId,
      messageId: d.messageId,
      actingUserId: d.editorId,
      senderId: message.sender_id,
      direct: message.type === 'private',
      channel: message.type === 'stream' ? { streamId: message.stream_id!, topic: message.subject } : null,
      candidates,
      mentionedUserIds: d.mentionedUserIds,
      // A channel-wide wildcard added by an edit is not looked for (every subscriber would be a candidate).
      streamWildcardMentioned: false,
      topicWildcardMentionedUserIds: d.topicWildcardMentionedUserIds,
      edit: true,
    };
  }

  /** Up to ROUND due rows: each user's batch mailed, then the rows deleted (whatever the outcome, as Zulip). */
  private async sendRound(): Promise<number> {
    const due = await this.readStore.find<MissedMessageEmailDocument>(MISSED_MESSAGE_EMAILS, {
      where: { scheduled_timestamp: { $lte: this.clock.now().getTime() } },
      orderBy: [{ field: 'scheduled_timestamp', direction: 'asc' }],
      limit: ROUND,
    });
    if (due.length === 0) return 0;
    const byUser = new Map<number, MissedMessageEmailDocument[]>();
    for (const row of due) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
    for (const [userId, rows] of byUser) {
      try {
        const mailed = await this.mailBatch(rows);
        this.logger.info({ userId, messages: rows.length, mails: mailed }, 'missed-message emails: batch handled');
      } catch (error) {
        this.logger.error({ err: error, userId, messages: rows.length }, 'missed-message emails: could not mail a batch; dropped');
      }
    }
    await this.readStore.commit({
      writes: [{ collection: MISSED_MESSAGE_EMAILS, ops: due.map((row) => ({ type: 'delete' as const, id: missedMessageEmailId(row.user_id, row.message_id) })) }],
      checkpoints: [],
    });
    return due.length;
  }

  /**
   * handle_missedmessage_emails: the batch's messages the user still has unread and may read,
   * grouped by conversation (a direct message conversation, or a channel and topic), one mail
   * each, least recently active conversation first; returns how many mails it queued.
   */
  private async mailBatch(rows: MissedMessageEmailDocument[]): Promise<number> {
    const { user_id: userId, realm_id: realmId } = rows[0];
    const user = await this.users.byId(realmId, userId);
    if (!user?.is_active || user.is_bot) return 0;
    const settings = await this.settings.settingsOf(userId);
    if (!settings.enable_offline_email_notifications) return 0;
    const flags = await this.userMessages.flagsFor(userId, rows.map((r) => r.message_id));
    const actor = actorFromUser(user);
    const buckets = new Map<string, MissedMessage[]>();
    for (const row of rows) {
      const mask = flags.get(row.message_id);
      if (mask === undefined || (mask & MESSAGE_FLAG_BITS.read) !== 0) continue;
      let found;
      try {
        found = await this.messages.getMessage(actor, row.message_id, { applyMarkdown: true, allowEmptyTopicName: false });
      } catch {
        continue; // deleted, or no longer readable by the user (MessageAccess says so)
      }
      const m = found.message;
      const key = m.type === 'stream' ? `stream:${m.stream_id}:${m.subject.toLowerCase()}` : `dm:${m.recipient_id}`;
      buckets.set(key, [...(buckets.get(key) ?? []), { message: m, rawContent: found.raw_content, trigger: row.trigger }]);
    }
    if (buckets.size === 0) return 0;
    const realm = await this.realms.byId(realmId);
    const otherRealm = await this.users.emailExistsInOtherRealm(realmId, user.delivery_email);
    const context = {
      recipient: { userId, fullName: user.full_name, email: user.delivery_email },
      realmName: realm?.name ?? '',
      realmUrl: this.config.externalUrl,
      showContent: settings.message_content_in_email_notifications,
      includeRealmName: includeRealmNameInSubject(settings.realm_name_in_email_notifications_policy, otherRealm ? 2 : 1),
    };
    const ordered = [...buckets.values()].sort((a, b) => Math.max(...a.map((m) => m.message.id)) - Math.max(...b.map((m) => m.message.id)));
    for (const missed of ordered) {
      // One id per (user, conversation's first message in the batch): mailing a batch again after
      // a crash before its rows were deleted queues nothing new.
      const firstId = Math.min(...missed.map((m) => m.message.id));
      await this.mailer.send({ ...missedMessageMail(context, missed), id: `missed_message-${userId}-${firstId}` });
    }
    return ordered.length;
  }
}
