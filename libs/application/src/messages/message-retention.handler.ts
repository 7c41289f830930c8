import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { effectiveRetentionDays, messageDecider, messageStream, retentionCutoff } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ClockPort } from '../ports/clock.port';
import type { GlobalPosition } from '../ports/event-store.port';
import type { ReadStorePort } from '../ports/read-store.port';
import { CLOCK, READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { RealmQueries, realmMessagingSettingsOf } from '../realms/realm.queries';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { MESSAGES, type MessageDocument } from './message.documents';
import { RETENTION_BATCH_SIZE, type RetentionRunResult, RunMessageRetentionCommand } from './message-retention.command';

/** Lets requests waiting on the event loop (sends among them) run between two batches. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * archive_messages: for each organization, each channel's messages older than its retention
 * (its own message_retention_days, else the organization's) and, when the organization has one,
 * the direct messages older than the organization's. Nothing is scanned: the last message sent
 * before the cutoff is one lookup of the messages collection's (realm_id, timestamp) index, and
 * the expired messages are the channel's (or the organization's direct) messages at or below that
 * id in the message index (retentionCandidates: its (stream_id, id) index, or the direct messages'
 * (realm_id, id) one), newest first, a batch at a time. Each is deleted by the message's own decider (ExpireMessage: the ordinary
 * `MessageDeleted`, marked `reason: "retention"`), so everything a deletion removes goes, and
 * clients are told nothing, as Zulip tells them nothing.
 */
@CommandHandler(RunMessageRetentionCommand)
export class RunMessageRetentionHandler implements ICommandHandler<RunMessageRetentionCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly realms: RealmQueries,
    private readonly channels: ChannelQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ options }: RunMessageRetentionCommand): Promise<RetentionRunResult> {
    const batchSize = Math.max(1, options.batchSize ?? RETENTION_BATCH_SIZE);
    const now = this.clock.now();
    const result: RetentionRunResult = { deleted: 0, realms: [] };
    for (const realm of await this.realms.list()) {
      const realmDays = realmMessagingSettingsOf(realm).message_retention_days;
      const run = { realmId: realm.id, now, batchSize, boundaries: new Map<number, number | null>() };
      const entry: RetentionRunResult['realms'][number] = { realmId: realm.id, stringId: realm.string_id, deleted: 0, channels: [], directMessages: 0 };
      // Archived channels too, as Zulip's get_realms_and_streams_for_archiving: their messages are still readable.
      for (const channel of await this.channels.list(realm.id, { includeArchived: true })) {
        const days = effectiveRetentionDays(channel.message_retention_days, realmDays);
        if (days === null) continue;
        const deleted = await this.expire(run, { streamId: channel.stream_id }, days);
        if (deleted > 0) entry.channels.push({ channelId: channel.stream_id, name: channel.name, deleted });
        entry.deleted += deleted;
      }
      const dmDays = effectiveRetentionDays(null, realmDays);
      if (dmDays !== null) {
        entry.directMessages = await this.expire(run, 'direct', dmDays);
        entry.deleted += entry.directMessages;
      }
      if (entry.deleted > 0) result.realms.push(entry);
      result.deleted += entry.deleted;
    }
    return result;
  }

  /** Deletes the messages of a channel (or the organization's direct messages) sent before `days` ago; how many. */
  private async expire(
    run: { realmId: number; now: Date; batchSize: number; boundaries: Map<number, number | null> },
    of: { streamId: number } | 'direct',
    days: number,
  ): Promise<number> {
    const cutoff = retentionCutoff(run.now, days);
    if (!run.boundaries.has(cutoff)) run.boundaries.set(cutoff, await this.lastIdSentBefore(run.realmId, cutoff));
    const boundary = run.boundaries.get(cutoff)!;
    if (boundary === null) return 0;
    const at = run.now.toISOString();
    let deleted = 0;
    for (let fromId = boundary; ; ) {
      const ids = await this.userMessages.retentionCandidates(run.realmId, of, fromId, run.batchSize);
      if (ids.length === 0) break;
      const locations = await this.userMessages.locationsOf(ids);
      let last: GlobalPosition | undefined;
      for (const messageId of ids) {
        const where = locations.get(messageId);
        const location = where && where.streamId !== null ? { streamId: where.streamId, topic: where.topic ?? '' } : null;
        const { newEvents, position } = await this.runner.run(messageDecider, messageStream(messageId), {
          type: 'ExpireMessage',
          data: { messageId, now: at, cutoff, location },
        });
        deleted += newEvents.length;
        if (position !== undefined) last = position;
      }
      // The batch's deletions reach the read models before the next batch is read.
      await this.projections.waitFor(last);
      if (ids.length < run.batchSize) break;
      // Keyset: a message the decider kept (sent after the cutoff despite its id) is not read again.
      fromId = ids[ids.length - 1] - 1;
      await yieldToOthers();
    }
    return deleted;
  }

  /**
   * The id of the organization's last message sent before `cutoff` (seconds), or null: one lookup of
   * the messages collection's (realm_id, timestamp) index, then the messages of that same second.
   */
  private async lastIdSentBefore(realmId: number, cutoff: number): Promise<number | null> {
    const [last] = await this.readStore.find<MessageDocument>(MESSAGES, {
      where: { realm_id: realmId, timestamp: { $lt: cutoff } },
      orderBy: [{ field: 'timestamp', direction: 'desc' }],
      limit: 1,
    });
    if (!last) return null;
    const sameSecond = await this.readStore.find<MessageDocument>(MESSAGES, { where: { realm_id: realmId, timestamp: last.timestamp } });
    return Math.max(...sameSecond.map((d) => d.id));
  }
}
