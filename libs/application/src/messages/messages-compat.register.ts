import { Inject, Injectable } from '@nestjs/common';
import { type Actor, MESSAGE_FLAG_BITS, VISIBILITY_POLICY } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { UserTopicQueries } from './user-topics.queries';

/** How many starred ids /register lists at most (Zulip lists them all; a bound keeps one register cheap). */
const STARRED_LIMIT = 50_000;

/**
 * Older sections of /register that clients still ask for (zulip-terminal: `message`,
 * `starred_messages`, `muted_topics`), from zerver/lib/events.py fetch_initial_state_data:
 * - `message`: `max_message_id`, the newest message the user has a row for (-1 when none);
 * - `starred_messages`: the ids of the user's starred messages, ascending;
 * - `muted_topics` (deprecated by `user_topics`): `[channel name, topic, last updated]` for every
 *   muted topic of a channel that is not archived. Zulip leaves it out when the client also asks
 *   for `user_topic`; here it is always answered when asked for.
 */
@Injectable()
export class MessagesCompatRegisterSections implements AreaRegisterSections {
  constructor(
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    private readonly userTopics: UserTopicQueries,
    private readonly channels: ChannelQueries,
  ) {}

  registerSections(): RegisterSection[] {
    return [
      { fetchType: 'message', read: async (actor) => ({ max_message_id: (await this.userMessages.maxMessageId(actor.realmId, actor.userId!)) ?? -1 }) },
      { fetchType: 'starred_messages', read: async (actor) => ({ starred_messages: await this.starred(actor) }) },
      { fetchType: 'muted_topics', read: async (actor) => ({ muted_topics: await this.mutedTopics(actor) }) },
    ];
  }

  private async starred(actor: Actor): Promise<number[]> {
    const matches = await this.userMessages.findMessages(
      { realmId: actor.realmId, userId: actor.userId!, scope: 'user', terms: [{ kind: 'flags', mask: MESSAGE_FLAG_BITS.starred, set: 'all', negated: false }] },
      { direction: 'older', fromId: Number.MAX_SAFE_INTEGER, limit: STARRED_LIMIT },
    );
    return matches.map((m) => m.id).sort((a, b) => a - b);
  }

  private async mutedTopics(actor: Actor): Promise<[string, string, number][]> {
    const muted = (await this.userTopics.userTopics(actor)).filter((t) => t.visibility_policy === VISIBILITY_POLICY.MUTED);
    if (muted.length === 0) return [];
    const channels = new Map((await this.channels.byIds(actor.realmId, [...new Set(muted.map((t) => t.stream_id))])).map((c) => [c.stream_id, c]));
    return muted.flatMap((t) => {
      const channel = channels.get(t.stream_id);
      return channel && !channel.is_archived ? [[channel.name, t.topic_name, t.last_updated] as [string, string, number]] : [];
    });
  }
}
