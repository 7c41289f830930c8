import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  type ChangeMessageFlags,
  checkFlagChange,
  DEFAULT_HISTORICAL_FLAGS,
  DomainError,
  EMPTY_TOPIC_FALLBACK_NAME,
  type FlagSelection,
  MESSAGE_FLAG_BITS,
  messageFlagsDecider,
  messageFlagsStream,
  type NarrowParameter,
  NoSuchUserError,
  selectionConditions,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel-queries';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SubscriptionQueries } from '../subscriptions/subscription-queries';
import { MessageQueries } from './get-messages.queries';

/** zerver/views/message_flags.py: at most this many messages per narrow request. */
export const MAX_FLAG_NARROW_MESSAGES = 5000;
const MIN_FLAG_NARROW_SIDE = 1000;

/**
 * update_message_flags_for_narrow's clamp: `num_before = min(num_before, max(5000 - num_after,
 * 1000))`, then `num_after = min(num_after, max(5000 - num_before, 1000))`: `num_before` gives way
 * first, so at most 5,000 are processed (plus the anchor) and each side keeps up to 1,000.
 */
export function clampFlagRange(numBefore: number, numAfter: number): { numBefore: number; numAfter: number } {
  const before = Math.min(numBefore, Math.max(MAX_FLAG_NARROW_MESSAGES - numAfter, MIN_FLAG_NARROW_SIDE));
  const after = Math.min(numAfter, Math.max(MAX_FLAG_NARROW_MESSAGES - before, MIN_FLAG_NARROW_SIDE));
  return { numBefore: before, numAfter: after };
}

export type FlagsForNarrowResult = {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
  ignored_because_not_subscribed_channels?: number[];
};

const READ = MESSAGE_FLAG_BITS.read;

/**
 * Personal flag changes (zerver/views/message_flags.py, zerver/actions/message_flags.py):
 * each request resolves what it selects, counts what would change, and records one
 * `MessageFlagsChanged` on `message_flags-<userId>`; the user-messages bulk projection applies
 * it with one UPDATE per level of the store. Responses wait for the projection.
 */
@Injectable()
export class MessageFlagsService {
  constructor(
    private readonly messages: MessageQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly projections: ProjectionWaiter,
    @Inject(USER_MESSAGE_STORE) private readonly store: UserMessageStorePort,
    private readonly runner: DeciderRunner,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  /** POST /messages/flags/narrow (update_message_flags_for_narrow). */
  async updateForNarrow(
    actor: Actor,
    params: { anchor: string; includeAnchor?: boolean; numBefore: number; numAfter: number; narrow: NarrowParameter[]; op: string; flag: string },
  ): Promise<FlagsForNarrowResult> {
    const userId = this.userId(actor);
    const includeAnchor = params.includeAnchor ?? true;
    const { numBefore, numAfter } = clampFlagRange(params.numBefore, params.numAfter);
    const { matches, foundOldest, foundNewest } = await this.messages.rangeOf(actor, { anchor: params.anchor, includeAnchor, numBefore, numAfter, narrow: params.narrow });
    const ids = matches.map((m) => m.id);
    const { updatedCount, ignoredChannels } = await this.change(actor, userId, params.flag, params.op, ids, new Map(matches.map((m) => [m.id, m.flags])));
    const result: FlagsForNarrowResult = {
      processed_count: ids.length,
      updated_count: updatedCount,
      first_processed_id: ids.length ? ids[0] : null,
      last_processed_id: ids.length ? ids[ids.length - 1] : null,
      found_oldest: foundOldest,
      found_newest: foundNewest,
    };
    if (params.flag === 'read' && params.op === 'remove') result.ignored_because_not_subscribed_channels = ignoredChannels;
    return result;
  }

  /** POST /messages/flags (update_message_flags): `messages` echoes the ids processed. */
  async updateByIds(actor: Actor, params: { messages: number[]; op: string; flag: string }) {
    const userId = this.userId(actor);
    const ids = [...new Set(params.messages)].sort((a, b) => a - b);
    const rows = await this.store.flagsFor(userId, ids);
    const { processed, ignoredChannels } = await this.changeIds(actor, userId, params.flag, params.op, ids, rows, params.messages);
    const result: { messages: number[]; ignored_because_not_subscribed_channels?: number[] } = { messages: processed };
    if (params.flag === 'read' && params.op === 'remove') result.ignored_because_not_subscribed_channels = ignoredChannels;
    return result;
  }

  /** POST /mark_stream_as_read (do_mark_stream_messages_as_read); "Invalid channel ID". */
  async markChannelAsRead(actor: Actor, streamId: number): Promise<void> {
    const userId = this.userId(actor);
    await this.channels.accessById(actor, streamId);
    await this.markSelectionRead(actor, userId, (upTo) => ({ kind: 'channel', streamId, topic: null, upToMessageId: upTo }));
  }

  /** POST /mark_topic_as_read: the empty-topic display name means the empty topic; "No such topic '<topic>'". */
  async markTopicAsRead(actor: Actor, streamId: number, topicName: string): Promise<void> {
    const userId = this.userId(actor);
    await this.channels.accessById(actor, streamId);
    const topic = topicName === EMPTY_TOPIC_FALLBACK_NAME ? '' : topicName;
    if (!(await this.store.topicHasMessages(actor.realmId, streamId, topic, userId))) throw new DomainError(`No such topic '${topic}'`);
    await this.markSelectionRead(actor, userId, (upTo) => ({ kind: 'channel', streamId, topic, upToMessageId: upTo }));
  }

  /** POST /mark_all_as_read (do_mark_all_as_read); Zulip answers `complete: true` when it finished in time. */
  async markAllAsRead(actor: Actor): Promise<{ complete: boolean }> {
    const userId = this.userId(actor);
    await this.markSelectionRead(actor, userId, (upTo) => ({ kind: 'all', upToMessageId: upTo }));
    return { complete: true };
  }

  private async markSelectionRead(actor: Actor, userId: number, selection: (upTo: number) => FlagSelection): Promise<void> {
    const upTo = await this.store.maxMessageId(actor.realmId, userId);
    if (upTo === null) return;
    const chosen = selection(upTo);
    const updatedCount = await this.store.countFlagChanges(userId, selectionConditions(chosen), 'add', READ);
    await this.record(actor, userId, 'read', 'add', chosen, updatedCount);
  }

  /** The narrow endpoint: the matches carry the flags (null: no row). */
  private async change(actor: Actor, userId: number, flag: string, op: string, ids: number[], flags: Map<number, number | null>) {
    const rows = new Map<number, number>();
    for (const [id, f] of flags) if (f !== null) rows.set(id, f);
    const { updatedCount, ignoredChannels } = await this.changeIds(actor, userId, flag, op, ids, rows, ids);
    return { updatedCount, ignoredChannels };
  }

  /**
   * do_update_message_flags: check the flag and operation; for `read` + `remove` skip messages
   * of channels the user is not subscribed to (their channel ids are reported); count the
   * messages whose flag changes, those without a row counting as `read | historical`; when the
   * change would alter such a message (adding `starred` / `collapsed`, removing `read`), each
   * must be accessible ("Invalid message(s)") and gets a historical row; record the change.
   * Marking read or unstarring a message without a row changes nothing and checks nothing.
   */
  private async changeIds(actor: Actor, userId: number, flag: string, op: string, ids: number[], rows: Map<number, number>, requested: number[]) {
    const checked = checkFlagChange(flag, op);
    let selected = ids;
    let processed = requested;
    let ignoredChannels: number[] = [];
    if (checked.flag === 'read' && checked.op === 'remove' && ids.length > 0) {
      const docs = await this.messages.documents(ids);
      const subscribed = await this.subscriptions.subscribedChannelIds(userId);
      const skipped = new Set<number>();
      const channels = new Set<number>();
      for (const doc of docs) {
        if (doc.type === 'stream' && doc.stream_id !== null && !subscribed.has(doc.stream_id)) {
          skipped.add(doc.id);
          channels.add(doc.stream_id);
        }
      }
      ignoredChannels = [...channels].sort((a, b) => a - b);
      selected = ids.filter((id) => !skipped.has(id));
      processed = requested.filter((id) => !skipped.has(id));
    }
    // A message without a row counts as DEFAULT_HISTORICAL_FLAGS (read | historical).
    const target = checked.op === 'add' ? checked.mask : 0;
    const changing = selected.filter((id) => ((rows.get(id) ?? DEFAULT_HISTORICAL_FLAGS) & checked.mask) !== target);
    let historicalIds: number[] = [];
    if ((DEFAULT_HISTORICAL_FLAGS & checked.mask) !== target) {
      // Starring, collapsing or marking unread a message the user never received: it must be
      // accessible ("Invalid message(s)"), and a historical row is created for it.
      historicalIds = changing.filter((id) => !rows.has(id));
      await this.messages.accessibleMessages(actor, historicalIds);
    }
    const selection: FlagSelection = historicalIds.length > 0 ? { kind: 'ids', messageIds: changing, historicalIds } : { kind: 'ids', messageIds: changing };
    const updatedCount = await this.record(actor, userId, checked.flag, checked.op, selection, changing.length);
    return { updatedCount, ignoredChannels, processed };
  }

  /** Decides and appends (expectedRevision `any`: the stream has no state, see messageFlagsStream) and waits for the projection. */
  private async record(actor: Actor, userId: number, flag: string, op: string, selection: FlagSelection, updatedCount: number): Promise<number> {
    const command: ChangeMessageFlags = {
      type: 'ChangeMessageFlags',
      data: { realmId: actor.realmId, userId, flag, op, selection, updatedCount, at: this.clock.now().toISOString() },
    };
    const { newEvents, position } = await this.runner.run(messageFlagsDecider, messageFlagsStream(userId), command, { actorId: actor.userId }, { stateless: true });
    if (newEvents.length === 0) return 0;
    await this.projections.waitFor(position);
    return updatedCount;
  }

  private userId(actor: Actor): number {
    if (actor.userId === null) throw new NoSuchUserError();
    return actor.userId;
  }
}
