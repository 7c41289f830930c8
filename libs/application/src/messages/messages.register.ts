import { Inject, Injectable } from '@nestjs/common';
import { type Actor, MESSAGE_FLAG_BITS } from '@app/domain';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { MESSAGES, type MessageDocument } from './message.documents';
import { UnreadQueries } from './unread.queries';
import { UserTopicQueries } from './user-topics.queries';

/** zerver/lib/events.py RECENT_CONVERSATIONS_LIMIT. */
const RECENT_CONVERSATIONS_LIMIT = 1000;

/**
 * The messaging sections of /register: `max_message_id` (`message`), `starred_messages`,
 * `user_topics`, the legacy `muted_topics` (for clients that do not ask for `user_topic`),
 * `recent_private_conversations`, `unread_msgs`.
 */
@Injectable()
export class MessagesRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly unread: UnreadQueries,
    private readonly userTopics: UserTopicQueries,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
  ) {}

  registerSections(): RegisterSection[] {
    return [
      // max_message_id_for_user: the newest message the user has a row for, -1 for none.
      { fetchType: 'message', read: async (actor) => ({ max_message_id: actor.userId === null ? -1 : ((await this.userMessages.maxMessageId(actor.realmId, actor.userId)) ?? -1) }) },
      { fetchType: 'starred_messages', read: async (actor) => ({ starred_messages: await this.starredMessages(actor) }) },
      { fetchType: 'muted_topics', supersededBy: ['user_topic'], read: async (actor) => ({ muted_topics: await this.userTopics.mutedTopics(actor) }) },
      { fetchType: 'user_topic', read: async (actor) => ({ user_topics: await this.userTopics.userTopics(actor) }) },
      { fetchType: 'recent_private_conversations', read: async (actor) => ({ recent_private_conversations: await this.recentPrivateConversations(actor) }) },
      // fetch_initial_state_data: `unread_msgs` (at most 50,000) when both `message` and `update_message_flags` are wanted.
      { fetchType: 'update_message_flags', alsoRequires: ['message'], read: async (actor) => ({ unread_msgs: await this.unread.unreadMsgs(actor) }) },
    ];
  }

  /** get_starred_message_ids: every message the user starred, ascending. */
  private async starredMessages(actor: Actor): Promise<number[]> {
    if (actor.userId === null) return [];
    const matches = await this.userMessages.findMessages(
      { realmId: actor.realmId, userId: actor.userId, scope: 'user', terms: [{ kind: 'flags', mask: MESSAGE_FLAG_BITS.starred, set: 'all', negated: false }] },
      { direction: 'older', fromId: Number.MAX_SAFE_INTEGER, limit: 1_000_000 },
    );
    return matches.map((m) => m.id).sort((a, b) => a - b);
  }

  /**
   * get_recent_private_conversations: the conversations of the user's newest 1,000 direct
   * messages (RECENT_CONVERSATIONS_LIMIT), each with its newest message id and the other
   * participants (none for the conversation with oneself), newest first.
   */
  private async recentPrivateConversations(actor: Actor): Promise<{ max_message_id: number; user_ids: number[] }[]> {
    if (actor.userId === null) return [];
    const matches = await this.userMessages.findMessages(
      { realmId: actor.realmId, userId: actor.userId, scope: 'user', terms: [{ kind: 'is-dm', negated: false }] },
      { direction: 'older', fromId: Number.MAX_SAFE_INTEGER, limit: RECENT_CONVERSATIONS_LIMIT },
    );
    const docs = await this.readStore.getMany<MessageDocument>(MESSAGES, matches.map((m) => String(m.id)));
    const conversations = new Map<string, { max_message_id: number; user_ids: number[] }>();
    for (const { doc } of docs) {
      const others = (doc.dm_user_ids ?? []).filter((id) => id !== actor.userId).sort((a, b) => a - b);
      const key = others.join(',');
      const known = conversations.get(key);
      if (!known || known.max_message_id < doc.id) conversations.set(key, { max_message_id: doc.id, user_ids: others });
    }
    return [...conversations.values()].sort((a, b) => b.max_message_id - a.max_message_id);
  }
}
