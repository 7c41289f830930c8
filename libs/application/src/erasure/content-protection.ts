/**
 * Which fields of which events hold message text, and under which key they are sealed in the
 * event log (docs/security.md, "How erasure works"). ONE table: the ProtectingEventStore seals
 * these fields on append and opens them on read; a field whose key was destroyed reads as its
 * `erased` marker. `content-protection.spec.ts` fails when an event type that carries message
 * text (a content, a rendering, a topic, an emoji, a widget) has no decision here.
 */

/** A sealed field in a stored event: its text is in the envelope of this key (`data.$sealed[keyId]`). */
export type SealedValue = { $sealed: string };

export const isSealedValue = (value: unknown): value is SealedValue =>
  typeof value === 'object' && value !== null && typeof (value as SealedValue).$sealed === 'string';

/**
 * Where a sealed event keeps its ciphertexts: `data.$sealed`, one envelope per key (key id →
 * `seal`'s `v1:` form of the JSON object `{ path: text }` of the fields sealed under that key),
 * so that an event costs one AES-GCM operation per key, not per field.
 */
export const ENVELOPES = '$sealed';
export type Envelopes = Record<string, string>;

export const envelopesOf = (data: unknown): Envelopes | undefined => {
  const envelopes = (data as Record<string, unknown> | null)?.[ENVELOPES];
  return typeof envelopes === 'object' && envelopes !== null ? (envelopes as Envelopes) : undefined;
};

/** What an erased field reads as. The projections and deciders only ever see these for messages deleted later in the log. */
export const ERASED = {
  content: '',
  rendering: '<p>(deleted)</p>',
  topic: '',
  /** Submessage and widget content is JSON that deciders parse: an empty object names no widget. */
  json: '{}',
  emoji: '',
} as const;

/** A message's own key: its content, renderings, edit history, submessages and reactions' emoji. */
export const messageScope = (messageId: number): string => `message:${messageId}`;
/**
 * A topic's key: the topic's name in the events about several messages of it (moves) and in
 * deletions. Its members are the messages moved into or out of it; erased once none is left.
 */
export const topicScope = (realmId: number, streamId: number, topic: string): string => `topic:${realmId}:${streamId}:${topic.toLowerCase()}`;

export type SealedField = {
  /** Dotted path in `data`. */
  path: string;
  /** The scope whose key seals it; null leaves the field as it is (e.g. no topic on a direct message). */
  scope: (data: any) => string | null;
  erased: string;
  /** Topic scopes: the message ids that this event puts in the topic (they become its members). */
  members?: (data: any) => number[];
};

export type ProtectionDecision = { seal: SealedField[] } | { clear: string };

const ofMessage = (data: { messageId: number }) => messageScope(data.messageId);
const field = (path: string, erased: string): SealedField => ({ path, scope: ofMessage, erased });

export const CONTENT_PROTECTION: Readonly<Record<string, ProtectionDecision>> = {
  MessageSent: {
    seal: [
      field('content', ERASED.content),
      field('renderedContent', ERASED.rendering),
      field('widget.content', ERASED.json),
      // A message's own copy of its topic goes with the message: under its key, so that a send
      // needs one key (derived from its batch's) and writes nothing to the key store. (Logs sealed before
      // kept it under the topic's key, which counted the message as a member: still read.)
      field('recipient.topic', ERASED.topic),
    ],
  },
  MessageContentEdited: {
    seal: [field('prevContent', ERASED.content), field('content', ERASED.content), field('prevRenderedContent', ERASED.rendering), field('renderedContent', ERASED.rendering)],
  },
  MessagesMoved: {
    seal: [
      // The moved messages are members of both topics: their edit history shows the old topic.
      { path: 'origTopic', scope: (d) => topicScope(d.realmId, d.origStreamId, d.origTopic), erased: ERASED.topic, members: (d) => d.messageIds },
      { path: 'topic', scope: (d) => topicScope(d.realmId, d.streamId, d.topic), erased: ERASED.topic, members: (d) => d.messageIds },
    ],
  },
  MessageDeleted: {
    seal: [{ path: 'topic', scope: (d) => (d.streamId != null && typeof d.topic === 'string' ? topicScope(d.realmId, d.streamId, d.topic) : null), erased: ERASED.topic }],
  },
  SubmessageAdded: { seal: [field('content', ERASED.json)] },
  ReactionAdded: { seal: [field('emojiName', ERASED.emoji), field('emojiCode', ERASED.emoji)] },
  ReactionRemoved: { seal: [field('emojiName', ERASED.emoji), field('emojiCode', ERASED.emoji)] },
  UserTopicVisibilityPolicyChanged: {
    clear: "a user's setting about a topic (Zulip keeps UserTopic rows when a topic's messages are deleted); not message text",
  },
  ScheduledMessageCreated: { clear: "not a message until delivered (delivery writes MessageSent, sealed); the sender's own data, deleted with the scheduled message's read model" },
  ScheduledMessageEdited: { clear: 'as ScheduledMessageCreated' },
  ScheduledMessageDeliveryClaimed: { clear: 'as ScheduledMessageCreated' },
  ScheduledMessageDelivered: { clear: 'as ScheduledMessageCreated' },
  ScheduledMessageDeliveryFailed: { clear: 'as ScheduledMessageCreated' },
  ScheduledMessageDeleted: { clear: 'as ScheduledMessageCreated' },
  UserStatusChanged: { clear: "a user's status emoji and text, not a message" },
  DraftsCreated: { clear: "a user's own draft, not a sent message" },
  DraftEdited: { clear: "a user's own draft, not a sent message" },
  DraftsDeleted: { clear: "a user's own draft, not a sent message" },
  SavedSnippetCreated: { clear: "a user's own saved snippet, not a message" },
  SavedSnippetEdited: { clear: "a user's own saved snippet, not a message" },
  SavedSnippetDeleted: { clear: "a user's own saved snippet, not a message" },
};

export const sealDecision = (type: string): SealedField[] | undefined => {
  const decision = CONTENT_PROTECTION[type];
  return decision && 'seal' in decision ? decision.seal : undefined;
};

/** Dotted paths split once (a send seals four fields, each looked up and written). */
const splitPaths = new Map<string, readonly string[]>();
const partsOf = (path: string): readonly string[] => {
  let parts = splitPaths.get(path);
  if (parts === undefined) splitPaths.set(path, (parts = path.split('.')));
  return parts;
};

/** The value at a dotted path, or undefined. */
export function valueAt(data: unknown, path: string): unknown {
  let value: any = data;
  for (const part of partsOf(path)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = value[part];
  }
  return value;
}

/**
 * A copy of `data` with several values at dotted paths replaced: each object on a path is copied
 * once however many fields are written under it, the rest is shared with `data`. `set` the
 * values, then take `result`.
 */
export function withValuesAt<T extends object>(data: T): { set(path: string, value: unknown): void; readonly result: T } {
  const root: any = Array.isArray(data) ? [...data] : { ...data };
  const copies = new Set<object>([root]);
  return {
    set(path, value) {
      const parts = partsOf(path);
      let node = root;
      for (let i = 0; i < parts.length - 1; i++) {
        let next = node[parts[i]];
        if (!copies.has(next)) {
          next = Array.isArray(next) ? [...next] : { ...next };
          copies.add(next);
          node[parts[i]] = next;
        }
        node = next;
      }
      node[parts[parts.length - 1]] = value;
    },
    result: root,
  };
}
