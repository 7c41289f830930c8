import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeDart } from './dart-decoders';

/**
 * What the Zulip mobile app (zulip-flutter) checks and does by hand after its decoders ran:
 * the asserts, `!`s, "TODO(log)"s and debug logs of lib/model (the stores reacting to events)
 * and the post-parse rules of lib/api that test/support/dart-decoders.ts does not interpret.
 *
 * These rules are MODELLED here, not read: each is a transcription of a few lines of the app.
 * What IS read from the app's source is the anchor of each rule (`APP_RULES`): a snippet that
 * must still be in the file it names. When the app changes one of those lines, `missingAnchors`
 * reports the rule, and the transcription below has to be looked at again. (The decoders
 * themselves, generated and hand-written, are interpreted or transcribed in dart-decoders.ts.)
 *
 * `FlutterAppModel` is one account of the app: built from the `/register` answer, it applies the
 * events of the account's queue in order, as lib/model does, and records every place where the app
 * would assert, throw, or log that the server sent something it considers wrong. `compare` then
 * holds what the app ends up believing about each message it knows against what the server
 * answers for it afterwards (`GET /messages/{id}`), through the app's own reading of that answer.
 */

export interface AppRule {
  id: string;
  /** The app file (under lib/) the rule is transcribed from. */
  file: string;
  /** Snippets that must be in that file (compared with comments stripped and whitespace collapsed). */
  anchors: string[];
  /** What the app does, and what this model checks. */
  what: string;
}

export const APP_RULES: AppRule[] = [
  {
    id: 'move-data',
    file: 'api/model/events.dart',
    anchors: ['origStreamId: origStreamId!,', 'origTopic: origTopic!,', 'propagateMode: propagateMode!', "'propagate_mode present but no new channel or topic'"],
    what: 'UpdateMessageMoveData.tryParseFromJson: a move (new channel or topic) needs stream_id, orig_subject and propagate_mode (transcribed in dart-decoders.ts)',
  },
  {
    // The hand-written decoders transcribed in dart-decoders.ts (its `custom`, `crunchyShell`,
    // `readValue` and `parseSubmessages`): the lines each transcription follows.
    id: 'decoders-hand-written',
    file: 'api/model/events.dart',
    anchors: [
      'result.streamId as int;',
      'result.topic as String;',
      'result.recipientIds as List<int>;',
      'result.messageDetails as Map<int, UpdateMessageFlagsMessageDetail>;',
      'result.userIds as List<int>;',
      "{...json['message'] as Map<String, dynamic>, 'flags': json['flags']};",
      "return (json['sender'] as Map<String, dynamic>)['user_id'];",
      "(item) => (item as Map<String, Object?>)['user_id'] as int).toList()..sort();",
      "UnexpectedEvent.fromJson(this.json) : super(id: json['id'] as int);",
    ],
    what: 'the crunchy-shell checks (DeleteMessageEvent, TypingEvent, UpdateMessageFlags*), MessageEvent, TypingEvent and UnexpectedEvent readers',
  },
  {
    id: 'decoders-hand-written',
    file: 'api/model/model.dart',
    anchors: [
      'throw Exception("Message.fromJson: unexpected message type $type");',
      "json['submessages'] as List<Object?>? ?? [],",
      "messageSenderId: (json['sender_id'] as num).toInt()",
      "final editHistory = json['edit_history'] as List<dynamic>?;",
      "final lastEditTimestamp = json['last_edit_timestamp'] as int?;",
      "final emojiName = json['emoji_name'] as String?;",
      "final reactionType = json['reaction_type'] as String?;",
    ],
    what: 'Message.fromJson, Message._readPoll, MessageEditState._readFromMessage, UserStatusChange.fromJson',
  },
  {
    id: 'decoders-hand-written',
    file: 'api/model/submessage.dart',
    anchors: [
      "final rawWidgetType = map['widget_type'] as String;",
      "final rawPollEventType = json['type'] as String;",
      'static PollEventSubmessageType fromRawString(String raw) => _byRawString[raw]!;',
      'int.parse(idx, radix: 10);',
      "final submessages = json.map((e) => Submessage.fromJson(e as Map<String, Object?>)).toList();",
    ],
    what: 'Submessage.parseSubmessagesJson, WidgetData.fromJson, PollEventSubmessage.fromJson, PollVoteEventSubmessage key check',
  },
  {
    id: 'error-envelope',
    file: 'api/core.dart',
    anchors: [
      "if (json != null && json['result'] == 'error' && json['code'] is String? && json['msg'] is String) {",
      "code: (json.remove('code') as String?) ?? 'BAD_REQUEST',",
      'return MalformedServerResponseException(',
    ],
    what: 'a 4xx answer is {result: "error", msg: string, code: string or absent}, else MalformedServerResponseException',
  },
  {
    id: 'error-envelope',
    file: 'model/store.dart',
    anchors: ["case ZulipApiException(code: 'BAD_EVENT_QUEUE_ID'):", "assert(debugLog('Lost event queue for $store.  Replacing…'));"],
    what: 'a lost event queue is a 4xx with code BAD_EVENT_QUEUE_ID (the app registers again quietly; any other error is reported as unexpected)',
  },
  {
    id: 'propagate-mode',
    file: 'api/model/model.dart',
    anchors: ['static PropagateMode fromRawString(String raw) => _byRawString[raw]!;'],
    what: 'PropagateMode.fromRawString: a propagate_mode outside change_one / change_later / change_all throws',
  },
  {
    id: 'update-message-ids',
    file: 'model/message.dart',
    anchors: ['assert(event.messageIds.contains(event.messageId)'],
    what: 'handleUpdateMessageEvent: message_ids contains message_id',
  },
  {
    id: 'update-message-content',
    file: 'model/message.dart',
    anchors: ['message.flags = event.flags;', 'message.editState = MessageEditState.edited;', "assert(message.contentType == 'text/html'", 'message.content = event.renderedContent!;'],
    what: 'content edit: flags replaced by the event\'s, orig_content marks the message edited, rendered_content replaces an HTML message\'s content',
  },
  {
    id: 'update-message-move',
    file: 'model/message.dart',
    anchors: ["assert(debugLog('Bad UpdateMessageEvent: stream/topic move on a DM'));", 'message.conversation.streamId = newStreamId;', 'message.conversation.topic = newTopic;', 'message.editState = MessageEditState.moved;', '_maybeStaleChannelMessages.add(messageId);'],
    what: 'move: never of a direct message; channel and topic replaced; a move that is not a (un)resolve marks an unedited message moved; a move into an unsubscribed channel makes it stale',
  },
  {
    id: 'edit-timestamp',
    file: 'model/message.dart',
    anchors: ['if (event.renderingOnly) {', 'message.lastEditTimestamp = event.editTimestamp;'],
    what: 'every update_message that is not rendering_only sets last_edit_timestamp of each message in message_ids',
  },
  {
    id: 'edit-state-from-history',
    file: 'api/model/model.dart',
    anchors: ["if (entry['prev_content'] != null) {", "if (entry['prev_stream'] != null) {", 'hasMoved |= !topicMoveWasResolveOrUnresolve(topic, prevTopic);', 'TopicName.resolvedTopicPrefix'],
    what: 'MessageEditState._readFromMessage: edited / moved / none from edit_history (or last_edit_timestamp)',
  },
  {
    id: 'message-event-no-match',
    file: 'model/store.dart',
    anchors: ['assert(event.message.matchContent == null);', 'assert(event.message.matchTopic == null);'],
    what: 'a message event carries no match_content / match_subject',
  },
  {
    id: 'stale-channel-messages',
    file: 'model/message.dart',
    anchors: ['if (message is StreamMessage && subscriptions[message.streamId] == null) {', '_maybeStaleChannelMessages.addAll(affectedKnownMessageIds);'],
    what: 'a channel message of an unsubscribed (or left, or deleted) channel is not expected to be kept up to date',
  },
  {
    id: 'dm-recipients',
    file: 'model/narrow.dart',
    anchors: ['assert(isSortedWithoutDuplicates(allRecipientIds)),', 'assert(allRecipientIds.contains(_selfUserId));', 'allRecipientIds: [...otherRecipientIds, selfUserId]..sort());'],
    what: 'DmNarrow: a DM\'s display_recipient has the self-user and no one twice; message_details user_ids of a DM leave the self-user out',
  },
  {
    id: 'unread-read-flag',
    file: 'model/unreads.dart',
    anchors: ["debugLog('Unreads warning: got surprising UpdateMessageEvent');", 'final detail = event.messageDetails![messageId];', 'if (detail == null) continue;'],
    what: 'update_message flags agree with the read state the app tracked; a read flag removed names each message in message_details',
  },
  {
    id: 'unread-snapshot-sorted',
    file: 'api/model/initial_snapshot.dart',
    anchors: ['}) : assert(isSortedWithoutDuplicates(unreadMessageIds));'],
    what: 'unread_msgs: each unread_message_ids sorted, without duplicates',
  },
  {
    id: 'snapshot-self',
    file: 'model/store.dart',
    anchors: ['throw Exception("bad initial snapshot: missing queueId");', 'throw Exception("bad initial snapshot: self-user missing from user list");'],
    what: '/register: queue_id present, the self-user in realm_users / realm_non_active_users / cross_realm_bots',
  },
  {
    id: 'realm-empty-topic',
    file: 'model/realm.dart',
    anchors: ['assert(_realmEmptyTopicDisplayName != null);'],
    what: '/register: realm_empty_topic_display_name present (feature level 334 and later)',
  },
  {
    id: 'known-entities',
    file: 'model/user.dart',
    anchors: ['final user = _users[event.userId];', 'return; // TODO log'],
    what: 'realm_user update of a user the app knows (from /register or realm_user add)',
  },
  {
    id: 'known-entities',
    file: 'model/user_group.dart',
    anchors: ['// TODO(log) if group not found', 'final group = _expectGroup(event.groupId);'],
    what: 'user_group update / add_members / remove_members / add_subgroups / remove_subgroups of a group the app knows',
  },
  {
    id: 'known-entities',
    file: 'model/saved_snippet.dart',
    anchors: ['assert(_savedSnippets[savedSnippet.id]!.dateCreated == savedSnippet.dateCreated);'],
    what: 'saved_snippets update of a snippet the app knows, with its date_created unchanged',
  },
  {
    id: 'known-entities',
    file: 'model/channel.dart',
    anchors: ['if (channelFolder == null) return;', 'if (channelFolder == null) continue;'],
    what: 'channel_folder update / reorder of folders the app knows',
  },
  {
    id: 'user-topic-policy',
    file: 'model/channel.dart',
    anchors: ['if (visibilityPolicy == UserTopicVisibilityPolicy.unknown) {', 'if (_warnInvalidVisibilityPolicy(visibilityPolicy)) {'],
    what: 'user_topics / user_topic: a visibility_policy the app knows (its _$UserTopicVisibilityPolicyEnumMap, read from the source), else TODO(log) and ignored',
  },
  {
    id: 'popular-emoji',
    file: 'model/emoji.dart',
    anchors: ['if (names == null) continue;', 'final emojiUnicode = tryParseEmojiCodeToUnicode(emojiCode)!;'],
    what: 'server_emoji_data_url: names for each of the app\'s popular emoji codes (the `check(...)` list, read from the source), else TODO(log) and left out of the emoji picker',
  },
  {
    id: 'channel-store',
    file: 'model/channel.dart',
    anchors: [
      '!streams.containsKey(stream.streamId) && !streamsByName.containsKey(stream.name)',
      'assert(streamName == event.name);',
      'assert(streams[subscription.streamId] is! Subscription);',
      'assert(subscriptions.containsKey(channelId));',
      'if (subscription == null) return;',
    ],
    what: 'stream create: a channel the app does not know yet; stream update name: `name` is the old name; subscription add: a known channel not subscribed yet; remove / update: a subscribed one',
  },
  {
    id: 'muted-users',
    file: 'model/user.dart',
    anchors: ['assert(isSortedWithoutDuplicates(sortedNew));'],
    what: 'muted_users: no user twice',
  },
  {
    id: 'typing-recipients',
    file: 'api/model/events.dart',
    anchors: ['}) : assert(recipientIds == null || isSortedWithoutDuplicates(recipientIds));'],
    what: 'typing: no recipient twice',
  },
  {
    id: 'poll',
    file: 'api/model/submessage.dart',
    anchors: [
      'assert(submessages.first.senderId == messageSenderId);',
      "assert(debugLog('Malformed submessage event data for poll: $e\\n${jsonEncode(event)}'));",
      'if (senderId != messageSenderId) {',
      'if (idx > _maxIdx || idx < 0) return;',
      'if (_existingOptionTexts.contains(option)) return;',
      "'${senderId ?? 'canned'},$idx';",
    ],
    what: 'Poll: built from the widget and each later submessage; live, each submessage event applied the same way (question only by the sender, options up to index 1000 and not twice, votes on known keys)',
  },
  {
    id: 'poll-live',
    file: 'model/message.dart',
    anchors: ["assert(debugLog('Missing poll for submessage event:\\n${jsonEncode(event)}'));", 'poll.handleSubmessageEvent(event);'],
    what: 'a submessage event goes to the poll of a message the app knows',
  },
  {
    id: 'reactions',
    file: 'model/message.dart',
    anchors: ['(message.reactions ??= Reactions([])).add(Reaction(', 'message.reactions!.remove('],
    what: 'reaction add / remove applied to the message (remove of an absent reaction: TODO(log))',
  },
];

/** emoji.dart `_popularEmojiCodesList`: the codes of its `check('<code>', '<emoji>')` entries. */
export function popularEmojiCodes(libDir: string): string[] {
  const src = readFileSync(join(libDir, 'model/emoji.dart'), 'utf8');
  const list = /_popularEmojiCodesList = \(\(\) \{([\s\S]*?)\}\)\(\);/.exec(src)?.[1] ?? '';
  return [...list.matchAll(/check\('([0-9a-f-]+)',/g)].map((m) => m[1]);
}

/** core.dart _makeApiException: what the app makes of an answer that is not a 200 (`ZulipApiException` with its code, or not). */
export function appErrorOf(status: number, body: unknown): string {
  const json = body as Json | null;
  if (status >= 400 && status <= 499) {
    if (json && json.result === 'error' && (json.code === undefined || json.code === null || typeof json.code === 'string') && typeof json.msg === 'string') return `ZulipApiException ${json.code ?? 'BAD_REQUEST'}`;
  } else if (status >= 500 && status <= 599) return 'Server5xxException';
  return 'MalformedServerResponseException';
}

/** The rules whose anchors are no longer in the app's source: each to be looked at again. */
export function missingAnchors(libDir: string): string[] {
  const missing: string[] = [];
  const sources = new Map<string, string>();
  for (const rule of APP_RULES) {
    if (!sources.has(rule.file)) {
      let text = '';
      try {
        text = normalizeDart(readFileSync(join(libDir, rule.file), 'utf8'));
      } catch {
        /* reported below */
      }
      sources.set(rule.file, text);
    }
    for (const anchor of rule.anchors) {
      if (!sources.get(rule.file)!.includes(normalizeDart(anchor))) missing.push(`${rule.id}: lib/${rule.file} no longer has ${anchor}`);
    }
  }
  return missing;
}

type Json = Record<string, any>;

const RESOLVED = '✔ ';

/** model.dart MessageEditState.topicMoveWasResolveOrUnresolve. */
function resolveOrUnresolve(topic: string, prevTopic: string): boolean {
  return (topic.startsWith(RESOLVED) && topic.slice(RESOLVED.length) === prevTopic) || (prevTopic.startsWith(RESOLVED) && prevTopic.slice(RESOLVED.length) === topic);
}

type EditState = 'none' | 'edited' | 'moved';

/** model.dart MessageEditState._readFromMessage. */
export function editStateOf(message: Json): EditState {
  const history = message.edit_history as Json[] | undefined | null;
  if (history == null) return message.last_edit_timestamp != null ? 'edited' : 'none';
  let moved = false;
  for (const entry of history) {
    if (entry.prev_content != null) return 'edited';
    if (entry.prev_stream != null) {
      moved = true;
      continue;
    }
    if (entry.prev_topic != null) moved ||= !resolveOrUnresolve(entry.topic, entry.prev_topic);
  }
  return moved ? 'moved' : 'none';
}

/** submessage.dart Poll: question, options by key with their voters. */
class PollModel {
  question: string;
  readonly options = new Map<string, { text: string; voters: Set<number> }>();
  private readonly texts = new Set<string>();
  /** The app's debug logs while applying events (it ignores the event). */
  readonly logs: string[] = [];

  constructor(
    readonly messageSenderId: number,
    question: string,
    options: string[],
  ) {
    this.question = question;
    options.forEach((text, idx) => this.addOption(null, idx, text));
  }

  /** Poll.fromSubmessages over Submessage.parseSubmessagesJson; null when the first is not a poll widget. */
  static fromSubmessages(submessages: Json[], messageSenderId: number): PollModel | null {
    if (!submessages?.length) return null;
    const widget = JSON.parse(submessages[0].content);
    if (widget.widget_type !== 'poll') return null;
    const poll = new PollModel(messageSenderId, widget.extra_data.question, widget.extra_data.options);
    for (const s of submessages.slice(1)) poll.apply(s.sender_id, JSON.parse(s.content));
    return poll;
  }

  /** Poll.handleSubmessageEvent: a content that does not parse as a poll event is logged and ignored. */
  handleSubmessageEvent(event: Json): void {
    let data: Json;
    try {
      data = JSON.parse(event.content);
      if (typeof data !== 'object' || data === null || typeof data.type !== 'string' || !['new_option', 'question', 'vote', 'unknown'].includes(data.type)) throw new Error('type');
      // The generated decoders of each poll event (PollVoteEventSubmessage with its key check).
      if (data.type === 'vote' && (typeof data.key !== 'string' || !/^(canned|\d+),\d+$/.test(data.key))) throw new Error('key');
      if (data.type === 'new_option' && (typeof data.option !== 'string' || !Number.isInteger(data.idx))) throw new Error('new_option');
      if (data.type === 'question' && typeof data.question !== 'string') throw new Error('question');
    } catch {
      this.logs.push(`Malformed submessage event data for poll: ${String(event.content).slice(0, 80)}`);
      return;
    }
    this.apply(event.sender_id, data);
  }

  private apply(senderId: number, data: Json): void {
    switch (data.type) {
      case 'new_option':
        this.addOption(senderId, data.idx, data.option);
        return;
      case 'question':
        if (senderId !== this.messageSenderId) this.logs.push(`user ${senderId} is not allowed to edit the question`);
        else this.question = data.question;
        return;
      case 'vote': {
        const option = this.options.get(data.key);
        if (!option) this.logs.push(`vote for unknown key ${data.key}`);
        else if (data.vote === 1) option.voters.add(senderId);
        else if (data.vote === -1) option.voters.delete(senderId);
        return;
      }
    }
  }

  private addOption(senderId: number | null, idx: number, text: string): void {
    if (idx > 1000 || idx < 0) return;
    if (this.texts.has(text)) return;
    this.options.set(`${senderId ?? 'canned'},${idx}`, { text, voters: new Set() });
    this.texts.add(text);
  }

  describe(): string {
    const options = [...this.options].map(([key, o]) => `${key}=${o.text}[${[...o.voters].sort((a, b) => a - b).join(',')}]`);
    return `${this.question} | ${options.join(' ')}`;
  }
}

interface AppMessage {
  id: number;
  type: 'stream' | 'private';
  streamId: number | null;
  topic: string | null;
  content: string;
  contentType: string;
  isMeMessage: boolean;
  editState: EditState;
  lastEditTimestamp: number | null;
  flags: Set<string>;
  /** `${reaction_type} ${emoji_code} ${user_id}` */
  reactions: Set<string>;
  poll: PollModel | null;
  /** In the app's _maybeStaleChannelMessages: not expected to be kept up to date. */
  stale: boolean;
}

const isSortedWithoutDuplicates = (ids: number[]) => ids.every((id, i) => i === 0 || ids[i - 1] < id);
const reactionKey = (r: Json) => `${r.reaction_type} ${r.emoji_code} ${r.user_id}`;
const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'];

/** The checks of the app's /register handling (PerAccountStore.fromInitialSnapshot, RealmStoreImpl and the snapshot classes). */
export function checkSnapshot(snapshot: Json, selfUserId: number): string[] {
  const problems: string[] = [];
  if (snapshot.realm_empty_topic_display_name == null) problems.push('realm-empty-topic: realm_empty_topic_display_name missing');
  if (snapshot.queue_id == null) problems.push('snapshot-self: queue_id missing ("bad initial snapshot: missing queueId")');
  const users = [...(snapshot.realm_users ?? []), ...(snapshot.realm_non_active_users ?? []), ...(snapshot.cross_realm_bots ?? [])];
  if (!users.some((u: Json) => u.user_id === selfUserId)) problems.push('snapshot-self: the self-user is in none of realm_users, realm_non_active_users, cross_realm_bots');
  for (const kind of ['streams', 'dms', 'huddles'] as const) {
    for (const item of snapshot.unread_msgs?.[kind] ?? []) {
      if (!isSortedWithoutDuplicates(item.unread_message_ids)) problems.push(`unread-snapshot-sorted: unread_msgs.${kind}: ${JSON.stringify(item.unread_message_ids)}`);
    }
  }
  return problems;
}

export class FlutterAppModel {
  private readonly streams = new Map<number, string>();
  private readonly subscribed = new Set<number>();
  private readonly messages = new Map<number, AppMessage>();
  /** The Unreads model: ids of the unread messages (old_unreads_missing is false on a fresh organization). */
  private readonly unread = new Set<number>();
  /** Users, user groups, saved snippets (id -> date_created) and channel folders the app knows. */
  private readonly users = new Set<number>();
  private readonly groups = new Set<number>();
  private readonly snippets = new Map<number, number>();
  private readonly folders = new Set<number>();
  /** Where the app would assert, throw or log about what the server sent: `rule: what`. */
  readonly problems: string[] = [];
  /** How many of each event kind went through `apply` (for the caller's coverage checks). */
  readonly applied = new Map<string, number>();

  constructor(
    readonly selfUserId: number,
    snapshot: Json,
    private readonly label: string,
    /** The visibility policies the app knows (_$UserTopicVisibilityPolicyEnumMap but its null `unknown`). */
    private readonly userTopicPolicies: unknown[] = [0, 1, 2, 3],
  ) {
    for (const p of checkSnapshot(snapshot, selfUserId)) this.problem(p);
    for (const t of snapshot.user_topics ?? []) this.checkPolicy(t.visibility_policy, `/register user_topics ${t.stream_id} "${t.topic_name}"`);
    for (const u of [...(snapshot.realm_users ?? []), ...(snapshot.realm_non_active_users ?? []), ...(snapshot.cross_realm_bots ?? [])]) this.users.add(u.user_id);
    for (const g of snapshot.realm_user_groups ?? []) this.groups.add(g.id);
    for (const x of snapshot.saved_snippets ?? []) this.snippets.set(x.id, x.date_created);
    for (const f of snapshot.channel_folders ?? []) this.folders.add(f.id);
    // channel.dart ChannelStoreImpl: subscriptions, then the other channels /register lists.
    for (const s of snapshot.subscriptions ?? []) {
      this.streams.set(s.stream_id, s.name);
      this.subscribed.add(s.stream_id);
    }
    for (const s of snapshot.streams ?? []) if (!this.streams.has(s.stream_id)) this.streams.set(s.stream_id, s.name);
    for (const kind of ['streams', 'dms', 'huddles'] as const) for (const item of snapshot.unread_msgs?.[kind] ?? []) for (const id of item.unread_message_ids) this.unread.add(id);
  }

  private checkPolicy(policy: unknown, what: string) {
    if (!this.userTopicPolicies.includes(policy)) this.problem(`user-topic-policy: ${what}: visibility_policy ${JSON.stringify(policy)} (TODO(log) in the app: ignored)`);
  }

  private problem(p: string) {
    this.problems.push(`${this.label}: ${p}`);
  }

  /** The messages the app holds and keeps up to date (what `compare` checks). */
  liveMessageIds(): number[] {
    return [...this.messages.values()].filter((m) => !m.stale).map((m) => m.id);
  }

  apply(event: Json): void {
    const kind = `${event.type}/${event.op ?? ''}`;
    this.applied.set(kind, (this.applied.get(kind) ?? 0) + 1);
    const at = `event ${event.id} ${kind}`;
    switch (event.type) {
      case 'message':
        return this.onMessage(event, at);
      case 'update_message':
        return this.onUpdateMessage(event, at);
      case 'delete_message':
        for (const id of event.message_ids) {
          this.messages.delete(id);
          this.unread.delete(id);
        }
        return;
      case 'update_message_flags':
        return this.onFlags(event, at);
      case 'reaction': {
        const message = this.messages.get(event.message_id);
        if (!message) return;
        if (event.op === 'add') message.reactions.add(reactionKey(event));
        else if (!message.reactions.delete(reactionKey(event))) this.problem(`reactions: ${at}: removes a reaction the message has not got (${reactionKey(event)})`);
        return;
      }
      case 'submessage': {
        const message = this.messages.get(event.message_id);
        if (!message) return;
        if (!message.poll) return; // the app logs "Missing poll" for any other widget (a to-do list): not a server matter
        const logged = message.poll.logs.length;
        message.poll.handleSubmessageEvent(event);
        for (const log of message.poll.logs.slice(logged)) this.problem(`poll: ${at}: ${log}`);
        return;
      }
      case 'stream':
        return this.onStream(event, at);
      case 'subscription':
        return this.onSubscription(event, at);
      case 'user_topic':
        this.checkPolicy(event.visibility_policy, at);
        return;
      case 'realm_user':
        if (event.op === 'add') this.users.add(event.person.user_id);
        else if (event.op === 'remove') this.users.delete(event.person.user_id);
        else if (event.op === 'update' && !this.users.has(event.person.user_id)) this.problem(`known-entities: ${at}: updates user ${event.person.user_id}, unknown to the app`);
        return;
      case 'user_group':
        if (event.op === 'add') this.groups.add(event.group.id);
        else if (event.op === 'remove') this.groups.delete(event.group_id);
        else if (!this.groups.has(event.group_id)) this.problem(`known-entities: ${at}: group ${event.group_id}, unknown to the app`);
        return;
      case 'saved_snippets':
        if (event.op === 'add') this.snippets.set(event.saved_snippet.id, event.saved_snippet.date_created);
        else if (event.op === 'remove') this.snippets.delete(event.saved_snippet_id);
        else if (event.op === 'update' && this.snippets.get(event.saved_snippet.id) !== event.saved_snippet.date_created) {
          this.problem(`known-entities: ${at}: snippet ${event.saved_snippet.id} date_created ${event.saved_snippet.date_created}, the app has ${this.snippets.get(event.saved_snippet.id)}`);
        }
        return;
      case 'channel_folder':
        if (event.op === 'add') this.folders.add(event.channel_folder.id);
        else if (event.op === 'update' && !this.folders.has(event.channel_folder_id)) this.problem(`known-entities: ${at}: folder ${event.channel_folder_id}, unknown to the app`);
        else if (event.op === 'reorder') for (const id of event.order) if (!this.folders.has(id)) this.problem(`known-entities: ${at}: orders folder ${id}, unknown to the app`);
        return;
      case 'muted_users': {
        const ids = (event.muted_users as Json[]).map((u) => u.id as number).sort((a, b) => a - b);
        if (!isSortedWithoutDuplicates(ids)) this.problem(`muted-users: ${at}: a user twice in ${JSON.stringify(ids)}`);
        return;
      }
      case 'typing': {
        if (event.message_type === 'stream') return;
        const ids = (event.recipients as Json[]).map((r) => r.user_id as number).sort((a, b) => a - b);
        if (!isSortedWithoutDuplicates(ids)) this.problem(`typing-recipients: ${at}: a recipient twice in ${JSON.stringify(ids)}`);
        return;
      }
    }
  }

  private onMessage(event: Json, at: string) {
    const m = event.message as Json;
    const flags = new Set<string>(event.flags ?? []);
    if ('match_content' in m || 'match_subject' in m) this.problem(`message-event-no-match: ${at}: message ${m.id} carries match_content / match_subject`);
    if (m.type === 'private') this.checkDmRecipients((m.display_recipient as Json[]).map((r) => r.id), `${at}: message ${m.id} display_recipient`);
    const message: AppMessage = {
      id: m.id,
      type: m.type,
      streamId: m.type === 'stream' ? m.stream_id : null,
      topic: m.type === 'stream' ? m.subject : null,
      content: m.content,
      contentType: m.content_type,
      isMeMessage: m.is_me_message,
      editState: editStateOf(m),
      lastEditTimestamp: m.last_edit_timestamp ?? null,
      flags,
      reactions: new Set((m.reactions ?? []).map(reactionKey)),
      poll: PollModel.fromSubmessages(m.submessages ?? [], m.sender_id),
      stale: m.type === 'stream' && !this.subscribed.has(m.stream_id),
    };
    this.messages.set(m.id, message);
    if (!flags.has('read')) this.unread.add(m.id);
  }

  private checkDmRecipients(ids: number[], what: string) {
    const sorted = [...ids].sort((a, b) => a - b);
    if (!isSortedWithoutDuplicates(sorted)) this.problem(`dm-recipients: ${what}: a user twice in ${JSON.stringify(ids)}`);
    if (!ids.includes(this.selfUserId)) this.problem(`dm-recipients: ${what}: the self-user ${this.selfUserId} is not in ${JSON.stringify(ids)}`);
  }

  private onUpdateMessage(event: Json, at: string) {
    const ids = event.message_ids as number[];
    if (!ids.includes(event.message_id)) this.problem(`update-message-ids: ${at}: message_ids ${JSON.stringify(ids)} lacks message_id ${event.message_id}`);
    if (event.propagate_mode != null && !PROPAGATE_MODES.includes(event.propagate_mode)) this.problem(`propagate-mode: ${at}: ${JSON.stringify(event.propagate_mode)}`);
    // Move data as UpdateMessageMoveData.tryParseFromJson reads it (its failures are the decoder check's).
    const origStreamId = event.stream_id ?? null;
    const newStreamId = event.new_stream_id ?? origStreamId;
    const message = this.messages.get(event.message_id);
    let origTopic: string | null = event.orig_subject ?? null;
    if (origTopic === null && newStreamId !== origStreamId) {
      // The app cannot decode this event at all (the decoder check reports it too): it drops the whole
      // GET /events answer and registers again. Modelled on with the topic the app knew, to go on checking.
      this.problem(`move-data: ${at}: moves to channel ${newStreamId} without orig_subject (UpdateMessageMoveData.tryParseFromJson: \`origTopic!\`)`);
      // (Every moved message was in the same topic: any of them the app knows tells it.)
      origTopic = ids.map((id) => this.messages.get(id)?.topic).find((t) => t != null) ?? null;
    }
    const newTopic = event.subject ?? origTopic;
    const moved = !(newStreamId === origStreamId && newTopic === origTopic) && origStreamId !== null && origTopic !== null;

    // unreads.dart handleUpdateMessageEvent: the event's read flag should match the local unread state.
    if (message && !(moved && !this.subscribed.has(newStreamId))) {
      const unreadInEvent = !(event.flags as string[]).includes('read');
      if (this.unread.has(event.message_id) !== unreadInEvent) {
        this.problem(`unread-read-flag: ${at}: message ${event.message_id} flags ${JSON.stringify(event.flags)} but the app has it ${this.unread.has(event.message_id) ? 'unread' : 'read'} ("Unreads warning: got surprising UpdateMessageEvent")`);
      }
    }
    // message.dart _handleUpdateMessageEventTimestamp
    if (!event.rendering_only) for (const id of ids) {
      const m = this.messages.get(id);
      if (m) m.lastEditTimestamp = event.edit_timestamp;
    }
    // _handleUpdateMessageEventContent
    if (message) {
      message.flags = new Set(event.flags);
      if (event.orig_content != null) message.editState = 'edited';
      if (event.rendered_content != null) {
        if (message.contentType !== 'text/html') this.problem(`update-message-content: ${at}: rendered_content for message ${message.id} of content_type ${message.contentType}`);
        message.content = event.rendered_content;
      }
      if (event.is_me_message != null) message.isMeMessage = event.is_me_message;
    }
    // _handleUpdateMessageEventMove (and Unreads._handleMessageMove)
    if (!moved) return;
    const wasResolveOrUnresolve = newStreamId === origStreamId && resolveOrUnresolve(newTopic, origTopic!);
    for (const id of ids) {
      const m = this.messages.get(id);
      if (!m) continue;
      if (m.type !== 'stream') {
        this.problem(`update-message-move: ${at}: moves direct message ${id} ("Bad UpdateMessageEvent: stream/topic move on a DM")`);
        continue;
      }
      if (newStreamId !== origStreamId) {
        m.streamId = newStreamId;
        if (!this.subscribed.has(newStreamId)) {
          m.stale = true;
          this.unread.delete(id);
        }
      }
      if (newTopic !== origTopic) m.topic = newTopic;
      if (!wasResolveOrUnresolve && m.editState === 'none') m.editState = 'moved';
    }
  }

  private onFlags(event: Json, at: string) {
    const add = event.op === 'add';
    if (add && event.all) {
      for (const m of this.messages.values()) m.flags.add(event.flag);
    } else {
      for (const id of event.messages as number[]) {
        const m = this.messages.get(id);
        if (!m) continue;
        if (add) m.flags.add(event.flag);
        else m.flags.delete(event.flag);
      }
    }
    if (event.flag !== 'read') return;
    if (add) {
      if (event.all) this.unread.clear();
      else for (const id of event.messages) this.unread.delete(id);
      return;
    }
    for (const id of event.messages as number[]) {
      const detail = event.message_details?.[String(id)];
      if (!detail) {
        this.problem(`unread-read-flag: ${at}: message ${id} has no message_details entry`);
        continue;
      }
      if (detail.type === 'private') {
        const others = detail.user_ids as number[];
        if (others.includes(this.selfUserId)) this.problem(`dm-recipients: ${at}: message_details of ${id} names the self-user in user_ids ${JSON.stringify(others)}`);
        this.checkDmRecipients([...others.filter((u) => u !== this.selfUserId), this.selfUserId], `${at}: message_details of ${id}`);
      }
      this.unread.add(id);
    }
  }

  private onStream(event: Json, at: string) {
    const names = new Set(this.streams.values());
    if (event.op === 'create') {
      for (const s of event.streams as Json[]) {
        if (this.streams.has(s.stream_id) || names.has(s.name)) this.problem(`channel-store: ${at}: creates channel ${s.stream_id} "${s.name}", which the app already has`);
        this.streams.set(s.stream_id, s.name);
      }
    } else if (event.op === 'delete') {
      const ids: number[] = event.stream_ids ?? (event.streams as Json[]).map((s) => s.stream_id);
      for (const id of ids) {
        if (!this.streams.has(id)) continue; // TODO(log) in the app: nothing to do
        this.streams.delete(id);
        this.subscribed.delete(id);
        this.staleIn(id);
      }
    } else if (event.op === 'update') {
      const old = this.streams.get(event.stream_id);
      if (old === undefined) return; // TODO(log) in the app
      if (event.property === 'name') {
        if (event.name !== old) this.problem(`channel-store: ${at}: renames channel ${event.stream_id} with name "${event.name}", but its old name is "${old}"`);
        this.streams.set(event.stream_id, event.value);
      }
    }
  }

  private onSubscription(event: Json, at: string) {
    if (event.op === 'add') {
      for (const s of event.subscriptions as Json[]) {
        if (!this.streams.has(s.stream_id)) this.problem(`channel-store: ${at}: subscribes to channel ${s.stream_id} "${s.name}", which the app does not know (no stream create first)`);
        else if (this.subscribed.has(s.stream_id)) this.problem(`channel-store: ${at}: subscribes to channel ${s.stream_id}, already subscribed`);
        this.streams.set(s.stream_id, s.name);
        this.subscribed.add(s.stream_id);
      }
    } else if (event.op === 'remove') {
      for (const s of event.subscriptions as Json[]) {
        if (!this.subscribed.has(s.stream_id)) this.problem(`channel-store: ${at}: unsubscribes from channel ${s.stream_id}, not subscribed`);
        this.subscribed.delete(s.stream_id);
        this.staleIn(s.stream_id);
      }
    } else if (event.op === 'update') {
      if (!this.subscribed.has(event.stream_id)) this.problem(`channel-store: ${at}: updates the subscription to channel ${event.stream_id}, not subscribed`);
    }
  }

  /** message.dart _handleSubscriptionsRemoved. */
  private staleIn(channelId: number) {
    for (const m of this.messages.values()) if (m.type === 'stream' && m.streamId === channelId) m.stale = true;
  }

  /**
   * What the app believes about each message it keeps up to date, against the server's answer
   * now (`GET /messages/{id}` as the app asks, undefined when refused), read as the app reads it.
   */
  compare(fetched: Map<number, Json | undefined>): string[] {
    const out: string[] = [];
    for (const id of this.liveMessageIds()) {
      const app = this.messages.get(id)!;
      const server = fetched.get(id);
      if (!server) {
        out.push(`${this.label}: message ${id}: the app holds it (no delete_message), the server refuses it`);
        continue;
      }
      const differ = (what: string, live: unknown, now: unknown) => {
        if (JSON.stringify(live) !== JSON.stringify(now)) out.push(`${this.label}: message ${id} ${what}: live ${JSON.stringify(live)}, fetched ${JSON.stringify(now)}`);
      };
      differ('stream_id', app.streamId, server.type === 'stream' ? server.stream_id : null);
      differ('topic', app.topic, server.type === 'stream' ? server.subject : null);
      differ('content', app.content, server.content);
      differ('is_me_message', app.isMeMessage, server.is_me_message);
      differ('edit state', app.editState, editStateOf(server));
      // Not compared: last_edit_timestamp. The app sets it on every update_message that is not
      // rendering_only, moves included; since feature level 365 Zulip keeps it for content edits
      // (moves set last_moved_timestamp), and so does this server: the app's own drift, not the server's.
      differ('flags', [...app.flags].sort(), [...(server.flags ?? [])].sort());
      differ('reactions', [...app.reactions].sort(), (server.reactions ?? []).map(reactionKey).sort());
      differ('poll', app.poll?.describe() ?? null, PollModel.fromSubmessages(server.submessages ?? [], server.sender_id)?.describe() ?? null);
    }
    return out;
  }
}
