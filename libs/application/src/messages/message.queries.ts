import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  badNarrow,
  badNarrowCombination,
  DomainError,
  LARGER_THAN_MAX_MESSAGE_ID,
  limitToRange,
  MAX_MESSAGES_PER_FETCH,
  MESSAGE_FLAG_BITS,
  narrowDefinesConversation,
  type NarrowParameter,
  parseAnchor,
  type SearchQuery,
  searchMatchFields,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { MessageMatch, MessageQuery, UserMessageStorePort } from '../ports/user-message-store.port';
import { RealmQueries } from '../realms/realm.queries';
import { USERS, type UserDocument } from '../users/user.documents';
import { MessageAccess } from './message-access';
import { MessageExtensions } from './message-extensions';
import { type ApiMessage, formatMessage, topicLinksOf } from './message-format';
import { LinkifierQueries } from '../linkifiers/linkifier.queries';
import { MESSAGES, type MessageDocument } from './message.documents';
import { NarrowResolver, searchOf } from './narrow-resolver';

export type GetMessagesParams = {
  anchor?: string;
  useFirstUnreadAnchor?: boolean;
  includeAnchor?: boolean;
  numBefore?: number;
  numAfter?: number;
  narrow?: NarrowParameter[];
  messageIds?: number[];
  applyMarkdown?: boolean;
  clientGravatar?: boolean;
  allowEmptyTopicName?: boolean;
};

export type GetMessagesResult = {
  messages: ApiMessage[];
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  history_limited: boolean;
  anchor?: number;
};

const FETCH_PARAMETERS = ['num_before', 'num_after', 'anchor', 'message_ids', 'include_anchor', 'use_first_unread_anchor'];

/** zerver/lib/exceptions.py IncompatibleParametersError. */
const incompatibleParameters = (parameters: string[]) =>
  new DomainError(`Unsupported parameter combination: ${parameters.join(', ')}`, 'BAD_REQUEST', 400, { parameters: parameters.join(', ') });

/**
 * GET /messages and GET /messages/{id} (zerver/views/message_fetch.py, zerver/lib/narrow.py
 * fetch_messages): the narrow decides the rows (the viewer's, or a readable channel's history),
 * the store finds the ids around the anchor, the read store supplies the messages.
 */
@Injectable()
export class MessageQueries {
  constructor(
    private readonly narrows: NarrowResolver,
    private readonly access: MessageAccess,
    private readonly extensions: MessageExtensions,
    private readonly realms: RealmQueries,
    private readonly channels: ChannelQueries,
    private readonly linkifiers: LinkifierQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly store: UserMessageStorePort,
  ) {}

  async getMessages(actor: Actor, params: GetMessagesParams): Promise<GetMessagesResult> {
    const numBefore = params.numBefore ?? 0;
    const numAfter = params.numAfter ?? 0;
    let includeAnchor = params.includeAnchor ?? true;
    const byIds = params.messageIds !== undefined;
    if (byIds && (numBefore || numAfter || params.anchor !== undefined || params.useFirstUnreadAnchor)) throw incompatibleParameters(FETCH_PARAMETERS);
    if (byIds) includeAnchor = false;
    const anchor = byIds ? null : parseAnchor(params.anchor, params.useFirstUnreadAnchor ?? false);
    const requested = byIds ? params.messageIds!.length : numBefore + numAfter;
    if (requested > MAX_MESSAGES_PER_FETCH) throw new DomainError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw new DomainError('The anchor can only be excluded at an end of the range');

    const viewer = await this.access.user(actor);
    const narrow = await this.withResolved(viewer, params.narrow ?? []);
    const { terms, includeHistory } = await this.narrows.resolve(viewer, narrow);
    const query: MessageQuery = { realmId: viewer.realm_id, userId: viewer.user_id, scope: includeHistory ? 'history' : 'user', terms };
    // A search's results carry match_content and match_subject (is_search: any search operand).
    const search = narrow.some((t) => t.operator === 'search') ? { query: searchOf(terms) } : undefined;

    if (byIds) {
      const matches = await this.byIds(query, params.messageIds!);
      return { messages: await this.format(viewer, matches, params, search), found_anchor: false, found_oldest: false, found_newest: false, history_limited: false };
    }
    const { anchor: resolvedAnchor, limited } = await this.anchoredRange(query, anchor, { numBefore, numAfter, includeAnchor });
    return {
      messages: await this.format(viewer, limited.rows, params, search),
      found_anchor: limited.foundAnchor,
      found_oldest: limited.foundOldest,
      found_newest: limited.foundNewest,
      history_limited: false,
      anchor: resolvedAnchor,
    };
  }

  /**
   * The messages POST /messages/flags/narrow processes (zerver/views/message_flags.py
   * update_message_flags_for_narrow → fetch_messages): the same narrow, anchor and range rules
   * as GET /messages, counts already clamped by the caller. Matches carry the viewer's flags
   * (null: no row, a readable channel's history).
   */
  async rangeOf(
    actor: Actor,
    params: { anchor: string; includeAnchor: boolean; numBefore: number; numAfter: number; narrow: NarrowParameter[] },
  ): Promise<{ viewer: UserDocument; matches: MessageMatch[]; foundOldest: boolean; foundNewest: boolean }> {
    const { numBefore, numAfter, includeAnchor } = params;
    const anchor = parseAnchor(params.anchor, false);
    if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw new DomainError('The anchor can only be excluded at an end of the range');
    const viewer = await this.access.user(actor);
    const { terms, includeHistory } = await this.narrows.resolve(viewer, await this.withResolved(viewer, params.narrow));
    const query: MessageQuery = { realmId: viewer.realm_id, userId: viewer.user_id, scope: includeHistory ? 'history' : 'user', terms };
    const { limited } = await this.anchoredRange(query, anchor, { numBefore, numAfter, includeAnchor });
    return { viewer, matches: limited.rows, foundOldest: limited.foundOldest, foundNewest: limited.foundNewest };
  }

  /**
   * The window of GET /messages and POST /messages/flags/narrow around an anchor: a null anchor
   * is the first unread message (find_first_unread_anchor, always over the viewer's own rows).
   */
  private async anchoredRange(query: MessageQuery, anchor: number | null, { numBefore, numAfter, includeAnchor }: { numBefore: number; numAfter: number; includeAnchor: boolean }) {
    if (anchor === null) {
      const [first] = await this.store.findMessages(
        { ...query, scope: 'user', terms: [...query.terms, { kind: 'flags', mask: MESSAGE_FLAG_BITS.read, set: 'none', negated: false }] },
        { direction: 'newer', fromId: 0, limit: 1 },
      );
      anchor = first?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
    }
    const anchoredToLeft = anchor === 0;
    const anchoredToRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
    const rows = await this.range(query, { anchor, numBefore, numAfter: anchoredToRight ? 0 : numAfter, includeAnchor, anchoredToLeft, anchoredToRight });
    return { anchor, limited: limitToRange(rows, { numBefore, numAfter, anchor, anchoredToLeft, anchoredToRight }) };
  }

  /** The documents of these messages (those that exist), where they are now (moves live in the message index). */
  documents(messageIds: number[]): Promise<MessageDocument[]> {
    return this.access.documents(messageIds);
  }

  /** zerver/lib/narrow.py limit_query_to_range: at most two index range scans. */
  private async range(
    query: MessageQuery,
    o: { anchor: number; numBefore: number; numAfter: number; includeAnchor: boolean; anchoredToLeft: boolean; anchoredToRight: boolean },
  ): Promise<MessageMatch[]> {
    const needBefore = !o.anchoredToLeft && o.numBefore > 0;
    const needAfter = !o.anchoredToRight && o.numAfter > 0;
    const rows: MessageMatch[] = [];
    if (needBefore) {
      const from = needAfter ? o.anchor - 1 : o.anchor - (o.includeAnchor ? 0 : 1);
      const limit = o.numBefore + (!needAfter && !o.anchoredToRight && o.includeAnchor ? 1 : 0);
      rows.push(...(await this.store.findMessages(query, { direction: 'older', fromId: o.anchoredToRight ? LARGER_THAN_MAX_MESSAGE_ID : from, limit })));
    }
    if (needAfter) {
      const from = needBefore ? o.anchor : o.anchor + (o.includeAnchor ? 0 : 1);
      const limit = o.numAfter + (needBefore || o.includeAnchor ? 1 : 0);
      rows.push(...(await this.store.findMessages(query, { direction: 'newer', fromId: from, limit })));
    }
    if (!needBefore && !needAfter) {
      rows.push(...(await this.store.findMessages({ ...query, terms: [...query.terms, { kind: 'id', id: o.anchor, negated: false }] }, { direction: 'newer', fromId: o.anchor, limit: 1 })));
    }
    return rows;
  }

  private async byIds(query: MessageQuery, ids: number[]): Promise<MessageMatch[]> {
    const result: MessageMatch[] = [];
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      const [match] = await this.store.findMessages({ ...query, terms: [...query.terms, { kind: 'id', id, negated: false }] }, { direction: 'newer', fromId: id, limit: 1 });
      if (match) result.push(match);
    }
    return result;
  }

  /** GET /messages/{message_id}: the message (access_message_and_usermessage) and its raw content. */
  async getMessage(actor: Actor, messageId: number, options: { applyMarkdown?: boolean; allowEmptyTopicName?: boolean }) {
    const { user, doc, flags } = await this.access.access(actor, messageId);
    const [message] = await this.formatDocs(user.realm_id, [doc], new Map([[messageId, flags ?? null]]), { applyMarkdown: options.applyMarkdown, allowEmptyTopicName: options.allowEmptyTopicName });
    return { message, raw_content: doc.content };
  }

  /**
   * The message as a `message` event carries it (formatted as GET /messages formats it), with no
   * access check: the client-event mapper of a send delivers it to the recipients the send named,
   * whoever sent it (Notification Bot posts into private channels it is not subscribed to). Null
   * when it is gone (deleted before the mapper ran).
   */
  async deliveredMessage(realmId: number, messageId: number): Promise<ApiMessage | null> {
    const [doc] = await this.documents([messageId]);
    if (!doc || doc.realm_id !== realmId) return null;
    const [message] = await this.formatDocs(realmId, [doc], new Map([[messageId, null]]), { applyMarkdown: true, allowEmptyTopicName: true });
    return message;
  }

  /**
   * GET /messages/matches_narrow (messages_in_narrow_backend): which of `messageIds` the viewer
   * received (UserMessage rows only, as Zulip) match the narrow, each with `match_content` (the
   * rendered content) and `match_subject` (the topic, HTML-escaped), the searched words highlighted.
   */
  async matchesNarrow(actor: Actor, messageIds: number[], narrow: NarrowParameter[]): Promise<Record<string, { match_content: string; match_subject: string }>> {
    const viewer = await this.access.user(actor);
    const { terms } = await this.narrows.resolve(viewer, narrow);
    const matches = await this.byIds({ realmId: viewer.realm_id, userId: viewer.user_id, scope: 'user', terms }, messageIds);
    const result: Record<string, { match_content: string; match_subject: string }> = {};
    const search = searchOf(terms);
    for (const doc of await this.documents(matches.map((m) => m.id))) {
      result[String(doc.id)] = searchMatchFields(doc.rendered_content, doc.type === 'stream' ? doc.subject : '', search);
    }
    return result;
  }

  /**
   * update_narrow_terms_containing_with_operator (clean_narrow_for_message_fetch, feature level
   * 271): `with` names a message; when the viewer may read it, the narrow's channel, topic and dm
   * terms become the conversation the message is in now (it may have moved since the link was
   * made), the other terms stay; when not, `with` is dropped if the rest names a conversation,
   * else refused.
   */
  private async withResolved(viewer: UserDocument, narrow: NarrowParameter[]): Promise<NarrowParameter[]> {
    const withTerms = narrow.filter((t) => t.operator === 'with');
    if (withTerms.length === 0) return narrow;
    if (withTerms.length > 1) throw badNarrowCombination("Duplicate 'with' operators.");
    const rest = narrow.filter((t) => t.operator !== 'with');
    const operand = String(withTerms[0].operand).trim();
    if (!/^[-+]?\d+$/.test(operand)) throw badNarrow("Invalid 'with' operator");
    const messageId = Number(operand);
    const [doc] = messageId > 0 ? await this.documents([messageId]) : [];
    let accessible = false;
    if (doc && doc.realm_id === viewer.realm_id) {
      const hasRow = (await this.store.flagsFor(viewer.user_id, [messageId])).has(messageId);
      accessible = await this.access.mayRead(viewer, doc, hasRow);
    }
    if (!doc || !accessible) {
      if (narrowDefinesConversation(rest)) return rest;
      throw badNarrow("Invalid 'with' operator");
    }
    const others = rest.filter((t) => !['stream', 'channel', 'topic', 'dm', 'pm-with'].includes(t.operator));
    const conversation: NarrowParameter[] =
      doc.type === 'stream'
        ? [{ operator: 'channel', operand: doc.stream_id!, negated: false }, { operator: 'topic', operand: doc.subject, negated: false }]
        : [{ operator: 'dm', operand: doc.dm_user_ids ?? [], negated: false }];
    return [...conversation, ...others];
  }

  private async format(viewer: UserDocument, matches: MessageMatch[], params: GetMessagesParams, search?: { query: SearchQuery | undefined }): Promise<ApiMessage[]> {
    const docs = await this.readStore.getMany<MessageDocument>(MESSAGES, matches.map((m) => String(m.id)));
    const byId = new Map(docs.map((d) => [d.doc.id, d.doc]));
    const ordered = matches.map((m) => byId.get(m.id)).filter((d): d is MessageDocument => d !== undefined);
    const messages = await this.formatDocs(viewer.realm_id, ordered, new Map(matches.map((m) => [m.id, m.flags])), params);
    if (!search) return messages;
    // The topic as stored (the empty topic stays ""), where the message is now.
    const locations = await this.store.locationsOf(ordered.map((d) => d.id));
    return messages.map((message, i) => {
      const doc = ordered[i];
      const topic = doc.type === 'stream' ? (locations.get(doc.id)?.topic ?? doc.subject) : '';
      return { ...message, ...searchMatchFields(doc.rendered_content, topic, search.query) };
    });
  }

  private async formatDocs(realmId: number, docs: MessageDocument[], flags: Map<number, number | null>, params: Pick<GetMessagesParams, 'applyMarkdown' | 'allowEmptyTopicName'>) {
    const userIds = new Set<number>();
    for (const doc of docs) {
      userIds.add(doc.sender_id);
      for (const id of doc.dm_user_ids ?? []) userIds.add(id);
    }
    // Where the messages are now: moves update the message index, not the documents.
    const locations = await this.store.locationsOf(docs.map((d) => d.id));
    const channelIds = [...new Set(docs.filter((d) => d.stream_id !== null).map((d) => locations.get(d.id)?.streamId ?? d.stream_id!))];
    const [users, channels, realm, linkifiers, extensionFields] = await Promise.all([
      this.readStore.getMany<UserDocument>(USERS, [...userIds].map(String)),
      this.channels.byIds(realmId, channelIds),
      this.realms.byId(realmId),
      this.linkifiers.facts(realmId),
      this.extensions.messageFields(realmId, docs.map((d) => d.id)),
    ]);
    const context = {
      users: new Map(users.map((u) => [u.doc.user_id, u.doc])),
      channelNames: new Map(channels.map((c) => [c.stream_id, c.name])),
      realmStringId: realm?.string_id ?? '',
      locations,
      extensionFields,
      applyMarkdown: params.applyMarkdown ?? true,
      allowEmptyTopicName: params.allowEmptyTopicName ?? false,
      topicLinks: topicLinksOf(linkifiers),
    };
    return docs.map((doc) => formatMessage(doc, flags.get(doc.id) ?? null, context));
  }
}
