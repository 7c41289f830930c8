import { Injectable } from '@nestjs/common';
import {
  badNarrow,
  directConversationKey,
  EMPTY_TOPIC_FALLBACK_NAME,
  isChannelOperator,
  MENTION_FLAGS_MASK,
  MESSAGE_FLAG_BITS,
  type NarrowParameter,
  parseSearchQuery,
  type SearchQuery,
  VISIBILITY_POLICY,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ChannelDocument } from '../channels/channel.documents';
import type { NarrowCondition, NarrowTerm } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import type { UserDocument } from '../users/user.documents';
import { MessageExtensions } from './message-extensions';
import { UserQueries } from '../users/user.queries';
import { actorFromUser } from '../users/user-format';
import { canReadChannelHistory } from './message-access';
import type { UserTopicDocument } from './message.documents';
import { UserTopicQueries } from './user-topics.queries';

export type ResolvedNarrow = { terms: NarrowTerm[]; includeHistory: boolean };

const IS_FLAGS: Record<string, NarrowCondition> = {
  starred: { kind: 'flags', mask: MESSAGE_FLAG_BITS.starred, set: 'all' },
  unread: { kind: 'flags', mask: MESSAGE_FLAG_BITS.read, set: 'none' },
  mentioned: { kind: 'flags', mask: MENTION_FLAGS_MASK, set: 'any' },
  alerted: { kind: 'flags', mask: MESSAGE_FLAG_BITS.has_alert_word, set: 'any' },
};

/**
 * zerver/lib/narrow.py NarrowBuilder and ok_to_include_history: turns narrow terms into the
 * store's conditions (names and emails resolved to ids, BAD_NARROW for unknown ones) and decides
 * whether the query may read a channel's whole history or only the viewer's own rows.
 */
@Injectable()
export class NarrowResolver {
  constructor(
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly userTopics: UserTopicQueries,
    private readonly extensions: MessageExtensions,
  ) {}

  async resolve(viewer: UserDocument, narrow: NarrowParameter[]): Promise<ResolvedNarrow> {
    // The viewer's muted channels and topic policies, read once, if a term needs them.
    let visibility: Promise<Visibility> | undefined;
    const visibilityOf = () => (visibility ??= this.visibility(viewer));
    const terms: NarrowTerm[] = [];
    let channelNarrow = false;
    let dmNarrow = false;
    const kind = (k: 'channel' | 'dm') => {
      if (k === 'channel') channelNarrow = true;
      else dmNarrow = true;
      if (channelNarrow && dmNarrow) throw badNarrow('No message can be both a channel message and direct message');
    };
    let includeHistory = false;
    const searchOperands: string[] = [];
    for (const { operator, operand, negated } of narrow) {
      const add = (condition: NarrowCondition) => terms.push({ ...condition, negated });
      if (isChannelOperator(operator)) {
        kind('channel');
        const channel = await this.channel(viewer.realm_id, operand as string | number);
        if (!negated) includeHistory = await this.canReadHistory(viewer, channel);
        add({ kind: 'stream', streamId: channel.stream_id });
      } else if (operator === 'channels' || operator === 'streams') {
        kind('channel');
        if (operand !== 'public' && operand !== 'web-public') throw badNarrow(`unknown channels operand ${String(operand)}`);
        const all = await this.channels.list(viewer.realm_id, { includeArchived: true });
        const ids = all
          .filter((c) => !c.invite_only && c.history_public_to_subscribers && (operand === 'public' || (c.is_web_public && !c.is_archived)))
          .map((c) => c.stream_id);
        if (operand === 'public' && !negated && viewer.role_name !== 'guest') includeHistory = true;
        add({ kind: 'streams', streamIds: ids });
      } else if (operator === 'topic') {
        kind('channel');
        // update_narrow_terms_containing_empty_topic_fallback_name: "general chat" is the empty topic.
        add({ kind: 'topic', topic: operand === EMPTY_TOPIC_FALLBACK_NAME ? '' : String(operand) });
      } else if (operator === 'sender') {
        add({ kind: 'sender', userId: (await this.user(viewer, operand as string | number, `unknown user ${String(operand)}`)).user_id });
      } else if (operator === 'dm' || operator === 'pm-with' || operator === 'pm_with') {
        kind('dm');
        add({ kind: 'dm', dmKey: await this.conversationKey(viewer, operand) });
      } else if (operator === 'dm-including' || operator === 'group-pm-with' || operator === 'group_pm_with') {
        kind('dm');
        const user = await this.user(viewer, operand as string | number, `unknown user ${String(operand)}`);
        add(user.user_id === viewer.user_id && operator === 'dm-including' ? { kind: 'is-dm' } : { kind: 'dm-including', userId: user.user_id });
      } else if (operator === 'is') {
        if (operand === 'dm' || operand === 'private') {
          kind('dm');
          add({ kind: 'is-dm' });
        } else if (operand === 'resolved') add({ kind: 'resolved' });
        else if (operand === 'followed') {
          const followed = (await visibilityOf()).topics.filter((t) => t.visibility_policy === VISIBILITY_POLICY.FOLLOWED);
          add({ kind: 'topics', topics: followed.map((t) => ({ streamId: t.stream_id, topic: t.topic_name })) });
        } else if (operand === 'muted') add(mutedCondition(await visibilityOf()));
        else if (typeof operand === 'string' && IS_FLAGS[operand]) add(IS_FLAGS[operand]);
        else throw badNarrow(`unknown 'is' operand ${String(operand)}`);
      } else if (operator === 'in') {
        if (operand === 'home') {
          // by_in: what muting hides is left out (its negation keeps only that); with nothing
          // muted the term is no condition at all, negated or not, as in Zulip.
          const muted = mutedCondition(await visibilityOf());
          if (muted.mutedTopics.length > 0 || muted.mutedStreamIds.length > 0) terms.push({ ...muted, negated: !negated });
        } else if (operand !== 'all') throw badNarrow(`unknown 'in' operand ${String(operand)}`);
      } else if (operator === 'has') {
        if (operand === 'link' || operand === 'image' || operand === 'attachment') add({ kind: 'has', what: operand });
        else {
          // has:reaction and whatever else a message extension answers.
          const term = this.extensions.narrowTerm(operator, operand);
          if (!term) throw badNarrow(`unknown 'has' operand ${String(operand)}`);
          add(await term(viewer));
        }
      } else if (operator === 'id') {
        if (!/^\d+$/.test(String(operand))) throw badNarrow('Invalid message ID');
        add({ kind: 'id', id: Number(operand) });
      } else if (operator === 'near') {
        // Only moves the anchor, which the client sends itself.
      } else if (operator === 'search') {
        searchOperands.push(String(operand));
      } else {
        throw badNarrow(`unknown operator ${operator}`);
      }
    }
    if (searchOperands.length > 0) terms.push(searchCondition(searchOperands));
    // A term on the viewer's own flags leaves nothing to find in history they did not receive.
    if (narrow.some((t) => t.operator === 'is')) includeHistory = false;
    return { terms, includeHistory };
  }

  private async visibility(viewer: UserDocument): Promise<Visibility> {
    const [subscriptions, topics] = await Promise.all([this.subscriptions.activeSubscriptionsOf(viewer.user_id), this.userTopics.policiesOf(viewer.user_id)]);
    return { mutedStreamIds: subscriptions.filter((s) => s.is_muted).map((s) => s.channel_id), topics };
  }

  private async channel(realmId: number, operand: string | number): Promise<ChannelDocument> {
    const channel = typeof operand === 'number' ? await this.channels.byId(realmId, operand) : await this.channels.byName(realmId, operand);
    if (!channel) throw badNarrow(`unknown channel ${String(operand)}`);
    return channel;
  }

  private async canReadHistory(viewer: UserDocument, channel: ChannelDocument): Promise<boolean> {
    const subscribed = await this.subscriptions.isSubscribed(viewer.user_id, channel.stream_id);
    return canReadChannelHistory(viewer.role_name, channel, subscribed);
  }

  /** A user named by id, or by an address the viewer may use (UserQueries.byEmailAs). */
  private async user(viewer: UserDocument, operand: string | number, error: string): Promise<UserDocument> {
    const user = typeof operand === 'number' ? await this.users.byId(viewer.realm_id, operand) : await this.users.byEmailAs(actorFromUser(viewer), operand.trim());
    if (!user) throw badNarrow(error);
    return user;
  }

  /** by_dm: the conversation of the named users and the viewer (deactivated users allowed). */
  private async conversationKey(viewer: UserDocument, operand: NarrowParameter['operand']): Promise<string> {
    const ids: number[] = [];
    const error = `unknown user in ${Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand)}`;
    const names = typeof operand === 'string' ? operand.split(',') : Array.isArray(operand) ? operand : [operand];
    for (const name of names) ids.push((await this.user(viewer, typeof name === 'string' ? name.trim() : name, error)).user_id);
    return directConversationKey([...ids, viewer.user_id]);
  }
}

/**
 * add_narrow_conditions: every search operand joined into one search, never negated (Zulip drops
 * the negation); a search of stop words only finds nothing, as PostgreSQL's empty tsquery.
 */
export function searchCondition(operands: string[]): NarrowTerm {
  const { words, phrases } = parseSearchQuery(operands.join(' '));
  if (words.length === 0) return { kind: 'nothing', negated: false };
  return { kind: 'search', words, phrases, negated: false };
}

/** The search of a resolved narrow, if it has one (for highlighting). */
export function searchOf(terms: NarrowTerm[]): SearchQuery | undefined {
  const term = terms.find((t): t is Extract<NarrowTerm, { kind: 'search' }> => t.kind === 'search');
  return term && { words: term.words, phrases: term.phrases };
}

type Visibility = { mutedStreamIds: number[]; topics: UserTopicDocument[] };

/**
 * exclude_stream_and_topic_mutes as one condition that holds for the messages muting hides:
 * muted topics anywhere, and the messages of muted channels (subscribed and muted) except
 * their unmuted or followed topics. `in:home` is its negation, `is:muted` the condition.
 */
function mutedCondition({ mutedStreamIds, topics }: Visibility): Extract<NarrowCondition, { kind: 'muted' }> {
  const ref = (t: UserTopicDocument) => ({ streamId: t.stream_id, topic: t.topic_name });
  const muted = new Set(mutedStreamIds);
  return {
    kind: 'muted',
    mutedTopics: topics.filter((t) => t.visibility_policy === VISIBILITY_POLICY.MUTED).map(ref),
    mutedStreamIds,
    visibleTopics: topics
      .filter((t) => muted.has(t.stream_id) && (t.visibility_policy === VISIBILITY_POLICY.UNMUTED || t.visibility_policy === VISIBILITY_POLICY.FOLLOWED))
      .map(ref),
  };
}
