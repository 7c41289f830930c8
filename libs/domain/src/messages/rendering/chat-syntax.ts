import type MarkdownIt from 'markdown-it';

type Md = MarkdownIt.MarkdownIt;
type State = MarkdownIt.StateInline;
import { emojiCode } from './emoji';

/** Zulip's chat syntax found while parsing, for the renderer and for the message's flags. */
export type MentionableUser = { id: number; fullName: string; isActive: boolean };
export type LinkableChannel = { id: number; name: string };
/**
 * A user group the content may mention (`@*name*`), with its members counting subgroups; system
 * groups show their display name ("Members"), deactivated groups render as silent mentions.
 */
export type MentionableGroup = { id: number; name: string; memberIds: readonly number[]; displayName?: string; deactivated?: boolean };

export type ChatSyntaxEnv = {
  usersById: Map<number, MentionableUser>;
  usersByName: Map<string, MentionableUser>;
  channelsByName: Map<string, LinkableChannel>;
  /** Active user groups by lower-cased name (MentionData.get_user_group). */
  groupsByName: Map<string, MentionableGroup>;
  emptyTopicDisplayName: string;
  /** Filled while rendering. */
  found: { mentionedUserIds: Set<number>; mentionedGroupIds: Set<number>; streamWildcard: boolean; topicWildcard: boolean };
};

/** zerver/lib/mention.py: which `@**…**` names are wildcards. */
export const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
export const TOPIC_WILDCARDS = new Set(['topic']);

/** BEFORE_MENTION_ALLOWED_REGEX: start of text, whitespace or one of ' " ( { [ / <. */
const MENTION_MAY_FOLLOW = /[\s'"({[/<]/;
/** BEFORE_LINK_PRODUCING_MENTION_ALLOWED_REGEX: the same without "[" (no links inside link text). */
const LINK_MAY_FOLLOW = /[\s'"({/<]/;

const MENTION = /^@(_?)\*\*([^*]+)\*\*/;
/** USER_GROUP_MENTION_REGEX: `@*name*`, silent `@_*name*`. */
const GROUP_MENTION = /^@(_?)\*([^*]+)\*/;
const TOPIC_LINK = /^#\*\*([^*>]+)>([^*]*)\*\*/;
const CHANNEL_LINK = /^#\*\*([^*]+)\*\*/;
const EMOJI = /^:([\p{L}\p{N}_+-]+):/u;

const mayFollow = (src: string, pos: number, allowed: RegExp) => pos === 0 || allowed.test(src[pos - 1]);

function resolveMention(env: ChatSyntaxEnv, name: string): MentionableUser | null | undefined {
  // For @**|id** and @**name|id**: the name, when given, must be the user's (renamed users stop matching).
  const idSyntax = /^(.+)?\|(\d+)$/.exec(name);
  if (idSyntax) {
    const user = env.usersById.get(Number(idSyntax[2]));
    if (idSyntax[1] && user && user.fullName !== idSyntax[1]) return null;
    return user;
  }
  return env.usersByName.get(name.toLowerCase());
}

/** Adds Zulip's mentions, channel and topic links and emoji to markdown-it as inline rules. */
export function chatSyntax(md: Md): void {
  md.inline.ruler.before('emphasis', 'zulip_mention', (state: State, silent: boolean) => {
    if (state.src.charCodeAt(state.pos) !== 0x40 || !mayFollow(state.src, state.pos, MENTION_MAY_FOLLOW)) return false;
    const match = MENTION.exec(state.src.slice(state.pos));
    if (!match) return false;
    const env = state.env as ChatSyntaxEnv;
    const name = match[2];
    let isSilent = match[1] === '_';
    const streamWildcard = STREAM_WILDCARDS.has(name);
    const topicWildcard = TOPIC_WILDCARDS.has(name);
    let user: MentionableUser | null | undefined;
    if (!streamWildcard && !topicWildcard) {
      user = resolveMention(env, name);
      if (!user) return false; // not a user: the text stays as typed
      if (!user.isActive) isSilent = true;
    }
    if (!silent) {
      if (streamWildcard && !isSilent) env.found.streamWildcard = true;
      if (topicWildcard && !isSilent) env.found.topicWildcard = true;
      if (user && !isSilent) env.found.mentionedUserIds.add(user.id);
      const token = state.push('zulip_mention', '', 0);
      token.meta = { name: user ? user.fullName : name, userId: user ? user.id : null, streamWildcard, topicWildcard, silent: isSilent };
    }
    state.pos += match[0].length;
    return true;
  });

  // UserGroupMentionPattern: a group by name (case-insensitively); a silent mention, or one of a
  // deactivated group, flags nobody.
  md.inline.ruler.before('emphasis', 'zulip_group_mention', (state: State, silent: boolean) => {
    if (state.src.charCodeAt(state.pos) !== 0x40 || !mayFollow(state.src, state.pos, MENTION_MAY_FOLLOW)) return false;
    const match = GROUP_MENTION.exec(state.src.slice(state.pos));
    if (!match) return false;
    const env = state.env as ChatSyntaxEnv;
    const group = env.groupsByName.get(match[2].toLowerCase());
    if (!group) return false;
    const isSilent = match[1] === '_' || group.deactivated === true;
    if (!silent) {
      if (!isSilent) env.found.mentionedGroupIds.add(group.id);
      state.push('zulip_group_mention', '', 0).meta = { groupId: group.id, name: group.displayName ?? group.name, silent: isSilent };
    }
    state.pos += match[0].length;
    return true;
  });

  md.inline.ruler.before('emphasis', 'zulip_channel_link', (state: State, silent: boolean) => {
    if (state.src.charCodeAt(state.pos) !== 0x23 || !mayFollow(state.src, state.pos, LINK_MAY_FOLLOW)) return false;
    const rest = state.src.slice(state.pos);
    const env = state.env as ChatSyntaxEnv;
    const topicMatch = TOPIC_LINK.exec(rest);
    const match = topicMatch ?? CHANNEL_LINK.exec(rest);
    if (!match) return false;
    const channel = env.channelsByName.get(match[1].toLowerCase());
    if (!channel) return false;
    if (!silent) {
      const token = state.push('zulip_channel_link', '', 0);
      token.meta = { channelId: channel.id, name: match[1], topic: topicMatch ? topicMatch[2] : null };
    }
    state.pos += match[0].length;
    return true;
  });

  md.inline.ruler.before('emphasis', 'zulip_emoji', (state: State, silent: boolean) => {
    if (state.src.charCodeAt(state.pos) !== 0x3a) return false;
    const match = EMOJI.exec(state.src.slice(state.pos));
    if (!match || emojiCode(match[1]) === undefined) return false;
    if (!silent) state.push('zulip_emoji', '', 0).meta = { name: match[1] };
    state.pos += match[0].length;
    return true;
  });
}
