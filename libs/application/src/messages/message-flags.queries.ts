import { Inject, Injectable } from '@nestjs/common';
import { type FlagSelection, MESSAGE_FLAG_BITS, selectionConditions } from '@app/domain';
import { USER_MESSAGE_STORE } from '../ports/tokens';
import type { NarrowTerm, UserMessageStorePort } from '../ports/user-message-store.port';

/** At most this many ids are named for a channel / topic selection (the newest). */
export const MAX_NAMED_CHANGED_IDS = 50_000;

/** A user's flag rows as the flag commands read them (the per-user message store). */
@Injectable()
export class MessageFlagQueries {
  constructor(@Inject(USER_MESSAGE_STORE) private readonly store: UserMessageStorePort) {}

  /** The user's flags on these messages, where they have a row. */
  flagsOf(userId: number, messageIds: number[]): Promise<Map<number, number>> {
    return this.store.flagsFor(userId, messageIds);
  }

  /** The id of the user's newest message (null: none). */
  newestMessageId(realmId: number, userId: number): Promise<number | null> {
    return this.store.maxMessageId(realmId, userId);
  }

  /** How many of the user's rows a selection covers that are still unread. */
  countUnread(userId: number, selection: FlagSelection): Promise<number> {
    return this.store.countFlagChanges(userId, selectionConditions(selection), 'add', MESSAGE_FLAG_BITS.read);
  }

  /**
   * The ids of the user's unread rows in a channel or topic selection, ascending, at most
   * MAX_NAMED_CHANGED_IDS (the newest): what marking it read changes.
   */
  async unreadIdsIn(realmId: number, userId: number, selection: Extract<FlagSelection, { kind: 'channel' }>): Promise<number[]> {
    const terms: NarrowTerm[] = [
      { kind: 'flags', mask: MESSAGE_FLAG_BITS.read, set: 'none', negated: false },
      { kind: 'stream', streamId: selection.streamId, negated: false },
    ];
    if (selection.topic !== null) terms.push({ kind: 'topic', topic: selection.topic, negated: false });
    const matches = await this.store.findMessages({ realmId, userId, scope: 'user', terms }, { direction: 'older', fromId: selection.upToMessageId, limit: MAX_NAMED_CHANGED_IDS });
    return matches.map((m) => m.id).sort((a, b) => a - b);
  }

  /** Whether the user has a message in the topic (`topic` as stored). */
  topicHasMessages(realmId: number, streamId: number, topic: string, userId: number): Promise<boolean> {
    return this.store.topicHasMessages(realmId, streamId, topic, userId);
  }
}
