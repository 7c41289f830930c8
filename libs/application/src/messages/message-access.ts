import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  actionAudience,
  canAccessChannelHistory,
  type MessageChannelFacts,
  hasMessageAccess,
  invalidMessage,
  type MessageAccessFacts,
  mayReadLinkedFile,
  NoSuchUserError,
} from '@app/domain';
import type { ChannelDocument } from '../channels/channel.documents';
import { ChannelQueries } from '../channels/channel.queries';
import type { ClientEventMapperContext } from '../events/client-event-registry';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import type { UserDocument } from '../users/user.documents';
import { UserQueries } from '../users/user.queries';
import { MESSAGES, type MessageDocument } from './message.documents';
import { currentMessage } from './message-format';

/** The message a request names, as its user may see it (access_message). */
export type AccessedMessage = {
  /** The user asking (reader, editor, reactor). */
  user: UserDocument;
  /** The message as it is now (current channel and topic). */
  doc: MessageDocument;
  channel: ChannelDocument | null;
  /** The user's row flags for the message; undefined without a row. */
  flags: number | undefined;
  subscribed: boolean;
  /** The user's active subscription to the message's channel is muted (`is_muted`). */
  channelMuted: boolean;
  /** Targets of the moves that named it (their streams recorded those moves). */
  moveTargets: number[];
};

/** Who has a queue in this process (what a client-event mapper may deliver to). */
export type QueueHolders = Pick<ClientEventMapperContext, 'hasQueues' | 'usersWithQueues'>;

/** The channel facts of the message access rule. */
export const channelAccessFacts = (channel: ChannelDocument): MessageChannelFacts => ({
  inviteOnly: channel.invite_only,
  historyPublicToSubscribers: channel.history_public_to_subscribers,
  isWebPublic: channel.is_web_public,
  isArchived: channel.is_archived,
});

/** can_access_stream_history for a channel document (the domain rule). */
export const canReadChannelHistory = (role: string, channel: ChannelDocument, subscribed: boolean): boolean =>
  canAccessChannelHistory({ role }, channelAccessFacts(channel), subscribed);

/**
 * The one place that looks up the facts of the message access rule (message-access.rules.ts):
 * every reader of a message (GET /messages/{id}, `with`, edits, deletes, reactions, submessages,
 * flags on messages without a row, read receipts, reports, file reads) asks `access` or
 * `accessMany`; the fan-out of an action on a message asks `audience`.
 */
@Injectable()
export class MessageAccess {
  constructor(
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
  ) {}

  /** The acting user (NoSuchUserError when they are gone). */
  async user(actor: Actor): Promise<UserDocument> {
    const user = actor.userId === null ? null : await this.users.byId(actor.realmId, actor.userId);
    if (!user) throw new NoSuchUserError();
    return user;
  }

  /** The documents of these messages (those that exist), where they are now (moves live in the message index). */
  async documents(messageIds: number[]): Promise<MessageDocument[]> {
    if (messageIds.length === 0) return [];
    const [docs, locations] = await Promise.all([this.readStore.getMany<MessageDocument>(MESSAGES, messageIds.map(String)), this.userMessages.locationsOf(messageIds)]);
    return docs.map((d) => currentMessage(d.doc, locations.get(d.doc.id)));
  }

  /**
   * access_message (has_message_access): the same "Invalid message(s)" for a message that does
   * not exist, is in another organization, or that the user may not read.
   */
  async access(actor: Actor, messageId: number): Promise<AccessedMessage> {
    const user = await this.user(actor);
    const stored = await this.readStore.get<MessageDocument>(MESSAGES, String(messageId));
    if (!stored || stored.realm_id !== user.realm_id) throw invalidMessage();
    const [locations, rows] = await Promise.all([this.userMessages.locationsOf([messageId]), this.userMessages.flagsFor(user.user_id, [messageId])]);
    const location = locations.get(messageId);
    const doc = currentMessage(stored, location);
    const flags = rows.get(messageId);
    const moveTargets = [...new Set((location?.moves ?? []).map((m) => m.target_message_id))];
    if (doc.type !== 'stream') {
      if (!hasMessageAccess({ role: user.role_name }, { type: 'private', hasRow: flags !== undefined })) throw invalidMessage();
      return { user, doc, channel: null, flags, subscribed: false, channelMuted: false, moveTargets };
    }
    const channel = await this.channels.byId(user.realm_id, doc.stream_id!);
    const subscription = channel ? await this.subscriptions.subscription(user.user_id, channel.stream_id) : null;
    const subscribed = subscription?.active === true;
    const facts: MessageAccessFacts = { type: 'stream', hasRow: flags !== undefined, channel: channel && channelAccessFacts(channel), subscribed };
    if (!hasMessageAccess({ role: user.role_name }, facts)) throw invalidMessage();
    return { user, doc, channel, flags, subscribed, channelMuted: subscribed && subscription!.is_muted === true, moveTargets };
  }

  /**
   * bulk_access_messages, all or nothing (do_update_message_flags calls access_message for each):
   * "Invalid message(s)" unless every one exists in the organization and the user may read it.
   * Returns the documents.
   */
  async accessMany(actor: Actor, messageIds: number[]): Promise<MessageDocument[]> {
    if (messageIds.length === 0) return [];
    const user = await this.user(actor);
    const docs = await this.documents(messageIds);
    if (docs.length !== new Set(messageIds).size) throw invalidMessage();
    const rows = await this.userMessages.flagsFor(user.user_id, messageIds);
    for (const doc of docs) {
      if (doc.realm_id !== user.realm_id || !(await this.mayRead(user, doc, rows.has(doc.id)))) throw invalidMessage();
    }
    return docs;
  }

  /** has_message_access for a document already read (channel and subscription looked up here). */
  async mayRead(user: UserDocument, doc: MessageDocument, hasRow: boolean): Promise<boolean> {
    return hasMessageAccess({ role: user.role_name }, await this.facts(user.user_id, doc, hasRow));
  }

  /**
   * validate_attachment_request: whether the reader may read a file linked by these messages
   * (the owner always; see mayReadLinkedFile). Stops at the first message the reader has a row for.
   */
  async mayReadLinkedFile(actor: Actor, ownerId: number, messageIds: number[]): Promise<boolean> {
    if (actor.userId === null) return false;
    const reader = { userId: actor.userId, role: actor.role };
    if (actor.userId === ownerId || messageIds.length === 0) return mayReadLinkedFile(reader, ownerId, []);
    // Where each message is now (a move may have taken it into another channel).
    const [docs, rows] = await Promise.all([this.documents(messageIds), this.userMessages.flagsFor(actor.userId, messageIds)]);
    const facts: MessageAccessFacts[] = [];
    for (const doc of docs) {
      if (doc.realm_id !== actor.realmId) continue;
      facts.push(await this.facts(actor.userId, doc, rows.has(doc.id)));
      if (rows.has(doc.id)) break;
    }
    return mayReadLinkedFile(reader, ownerId, facts);
  }

  /**
   * event_recipient_ids_for_action_on_messages (actionAudience) among the users with a queue here,
   * each with their row flags for the message (undefined: no row). Rows are looked up in one call
   * (usersWithFlags, or with `flags: true` flagsForUsers, which also gives each holder's flags).
   */
  async audience(doc: MessageDocument, queues: QueueHolders, options: { flags?: boolean } = {}): Promise<Map<number, number | undefined>> {
    const here = (ids: Iterable<number>) => [...new Set(ids)].filter((id) => queues.hasQueues(id));
    let userIds: number[];
    let holderIds: number[];
    // The row holders among the candidates; with `flags`, their flags too (one read either way).
    let flagsOf = new Map<number, Map<number, number>>();
    const rowsOf = async (candidates: number[]): Promise<number[]> => {
      if (!options.flags) return this.rowHolders(doc.id, candidates);
      flagsOf = candidates.length === 0 ? new Map() : await this.userMessages.flagsForUsers(candidates, [doc.id]);
      return [...flagsOf.keys()].sort((a, b) => a - b);
    };
    if (doc.type !== 'stream') {
      holderIds = await rowsOf(here(doc.dm_user_ids ?? []));
      userIds = actionAudience({ type: 'private', rowHolderIds: holderIds });
    } else {
      const channel = await this.channels.byId(doc.realm_id, doc.stream_id!);
      if (!channel) return new Map();
      const subscriberIds = here(await this.subscriptions.subscriberIds(doc.realm_id, channel.stream_id));
      const subscribed = new Set(subscriberIds);
      // Rows matter for protected history (subscribers) and public channels (everyone else here);
      // subscribers' rows also give them their flags.
      const candidates = [
        ...(!channel.history_public_to_subscribers || options.flags ? subscriberIds : []),
        ...(!channel.invite_only ? here(queues.usersWithQueues()).filter((id) => !subscribed.has(id)) : []),
      ];
      holderIds = await rowsOf(candidates);
      const others = holderIds.filter((id) => !subscribed.has(id));
      const users = await Promise.all(others.map((id) => this.users.byId(doc.realm_id, id)));
      const readers = new Set(others.filter((_, i) => users[i] !== null && users[i]!.is_active && users[i]!.role_name !== 'guest'));
      userIds = actionAudience({ type: 'stream', channel: channelAccessFacts(channel), subscriberIds, rowHolderIds: holderIds, readsPublicChannels: (id) => readers.has(id) });
    }
    return new Map(userIds.map((id) => [id, flagsOf.get(id)?.get(doc.id)]));
  }

  /** Which of `userIds` hold a row for the message: one call (usersWithFlags), ascending. */
  rowHolders(messageId: number, userIds: number[]): Promise<number[]> {
    return userIds.length === 0 ? Promise.resolve([]) : this.userMessages.usersWithFlags(messageId, userIds, 0);
  }

  private async facts(userId: number, doc: MessageDocument, hasRow: boolean): Promise<MessageAccessFacts> {
    if (doc.type !== 'stream' || doc.stream_id === null) return { type: 'private', hasRow };
    const channel = await this.channels.byId(doc.realm_id, doc.stream_id);
    const subscribed = channel ? await this.subscriptions.isSubscribed(userId, channel.stream_id) : false;
    return { type: 'stream', hasRow, channel: channel && channelAccessFacts(channel), subscribed };
  }
}
