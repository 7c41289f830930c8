/**
 * Who may read what of an event in the audit history (GET /svc/history, the operator console, the
 * CLI's `history`): one decision per event type, so that a new event type cannot appear in the
 * history before someone decided who reads it (test/api/history-access.api-spec.ts fails on an
 * undecided type). docs/security.md has the table in prose.
 *
 * The event is always listed (its type, time, stream and who did it); the values a reader may not
 * read are replaced by `[hidden]`. Secrets are hidden from every reader, the operator included.
 */
export const HIDDEN = '[hidden]';

/** Fields every event may show: which organization, when, who did it (the "who, when, what kind"). */
const ALWAYS_OPEN = ['realmId', 'at', 'actorId'] as const;

/**
 * - `administrators`: facts of the organization an administrator reads in Zulip anyway (settings,
 *   channels and their members, groups, roles, names, statuses, profile fields): shown as recorded.
 * - `owner`: one user's own data (drafts, snippets, alert words, mutes, flags, personal settings,
 *   scheduled messages, uploads, devices, bot storage): its values only to that user (named by the
 *   `owner` field) and the operator.
 * - `message`: about a message (its send, edits, moves, deletion, reactions, submessages): its
 *   values only to whoever may read the message now (GET /messages/{id}, named by the `message`
 *   field); never once the message is deleted; earlier versions only where edit history is allowed.
 *
 * `open`: the fields shown to every reader beside ALWAYS_OPEN (ids saying what the event is about).
 * `secrets`: fields hidden from everyone. SECRET_FIELD below is a second net for what a list misses.
 */
export type HistoryRule =
  | { read: 'administrators'; secrets?: readonly string[]; addresses?: AccountAddresses }
  | { read: 'owner'; owner: string; open?: readonly string[]; secrets?: readonly string[] }
  | { read: 'message'; message: string; open?: readonly string[]; secrets?: readonly string[]; versions?: VersionedFields };

/**
 * Where edit history is not allowed: the fields of the event that hold an earlier version of the
 * message (its content or place before a later edit or move), given the message as it is now.
 */
type VersionedFields = (data: Record<string, unknown>, current: CurrentMessage) => string[];

/**
 * Fields holding an account's real address (`user` names the account's id field): shown only to a
 * reader who may read that account's delivery_email now (email_address_visibility; the operator always).
 */
type AccountAddresses = { user: string; fields: readonly string[] };

/** The message as GET /messages/{id} shows it now (its current channel and topic). */
export type CurrentMessage = { content: string; streamId: number | null; topic: string };

const administrators: HistoryRule = { read: 'administrators' };
const ownData = (owner: string, open: readonly string[] = [], secrets?: readonly string[]): HistoryRule => ({ read: 'owner', owner, open: [owner, ...open], secrets });
const aboutMessage = (message: string, open: readonly string[] = [], versions?: VersionedFields): HistoryRule => ({ read: 'message', message, open: [message, ...open], versions });

// The secrets of events written before they left the log, the entries and digests that stand for them now.
const pushSecrets = ['pushKey', 'encryptedPushRegistration', 'token', 'pushKeyEntryId', 'pushKeyDigest', 'registrationEntryId', 'releasedEntryIds', 'tokenEntryId', 'tokenDigest'];

/** Every event type the domain declares → who reads it. */
export const HISTORY_RULES: Readonly<Record<string, HistoryRule>> = {
  // The organization, its registry and settings.
  RealmCreated: administrators,
  RealmPropertyChanged: administrators,
  RealmGroupSettingChanged: administrators,
  RealmDeactivated: administrators,
  RealmReactivated: administrators,
  LinkifierAdded: administrators,
  LinkifierChanged: administrators,
  LinkifierRemoved: administrators,
  LinkifiersReordered: administrators,
  RealmPlaygroundAdded: administrators,
  RealmPlaygroundRemoved: administrators,
  RealmEmojiAdded: administrators,
  RealmEmojiRemoved: administrators,
  CustomProfileFieldCreated: administrators,
  CustomProfileFieldUpdated: administrators,
  CustomProfileFieldDeleted: administrators,
  CustomProfileFieldsReordered: administrators,

  // Accounts: what the users list and the organization settings show administrators. Never a key or a hash.
  // The secrets themselves are in the credential store, never in these events (issue 35); the
  // entries' names are hidden all the same (and `apiKey`/`passwordHash`, should an old event slip through).
  UserCreated: { read: 'administrators', secrets: ['apiKeyId', 'passwordId', 'apiKey', 'passwordHash'], addresses: { user: 'userId', fields: ['email'] } },
  UserRoleChanged: administrators,
  UserFullNameChanged: administrators,
  UserDeactivated: administrators,
  UserReactivated: administrators,
  UserApiKeyRegenerated: { read: 'administrators', secrets: ['apiKeyId', 'apiKey'] },
  UserPasswordChanged: { read: 'administrators', secrets: ['passwordId', 'passwordHash'] },
  BotOwnerChanged: administrators,
  UserEmailChanged: { read: 'administrators', addresses: { user: 'userId', fields: ['oldEmail', 'newEmail'] } },
  // Everyone in the organization sees statuses and profile field values (GET /users).
  UserStatusChanged: administrators,
  CustomProfileFieldValueChanged: administrators,
  CustomProfileFieldValueRemoved: administrators,
  // The address a user asked to move to is theirs until confirmed. The confirmation key never enters
  // the log; its digest is hidden too (it names the link, and nobody reading history needs it).
  EmailChangeRequested: ownData('userId', [], ['keyDigest', 'revokedKeyDigests']),
  EmailChangeConfirmed: { read: 'administrators', secrets: ['keyDigest'], addresses: { user: 'userId', fields: ['oldEmail', 'newEmail'] } },
  UserSettingChanged: ownData('userId', ['property', 'editedBySelf']),
  // Invitations: administrators see every invitation in Zulip (GET /invites). The link's key never
  // enters the log; its digest is hidden too.
  InvitationCreated: { read: 'administrators', secrets: ['keyDigest'] },
  InvitationResent: { read: 'administrators', secrets: ['keyDigest'] },
  InvitationRevoked: administrators,
  MultiuseInvitationCreated: { read: 'administrators', secrets: ['keyDigest'] },
  MultiuseInvitationRevoked: administrators,
  InvitationAccepted: administrators,

  // Channels, their members, folders and groups: administrators see every channel's settings and subscribers.
  ChannelCreated: administrators,
  DefaultChannelAdded: administrators,
  DefaultChannelRemoved: administrators,
  ChannelNameChanged: administrators,
  ChannelDescriptionChanged: administrators,
  ChannelPermissionChanged: administrators,
  ChannelDeactivated: administrators,
  ChannelReactivated: administrators,
  ChannelFolderChanged: administrators,
  ChannelTopicsPolicyChanged: administrators,
  ChannelMessageRetentionDaysChanged: administrators,
  ChannelFolderCreated: administrators,
  ChannelFolderNameChanged: administrators,
  ChannelFolderDescriptionChanged: administrators,
  ChannelFolderArchived: administrators,
  ChannelFolderUnarchived: administrators,
  ChannelFoldersReordered: administrators,
  // The colors here are the server's picks at subscription; a user's own changes are SubscriptionPropertyChanged.
  SubscriptionsCreated: administrators,
  SubscriptionsReactivated: administrators,
  SubscriptionsDeactivated: administrators,
  UserGroupCreated: administrators,
  UserGroupNameChanged: administrators,
  UserGroupDescriptionChanged: administrators,
  UserGroupSettingChanged: administrators,
  UserGroupMembersAdded: administrators,
  UserGroupMembersRemoved: administrators,
  UserGroupSubgroupsAdded: administrators,
  UserGroupSubgroupsRemoved: administrators,
  UserGroupDeactivated: administrators,
  UserGroupReactivated: administrators,

  // Messages: whoever may read the message (GET /messages/{id}); nobody once it is deleted.
  MessageSent: aboutMessage('messageId', ['senderId'], (d, current) => {
    const earlier: string[] = [];
    if (d.content !== current.content) earlier.push('content', 'renderedContent');
    const to = d.recipient as { type?: string; streamId?: number; topic?: string } | undefined;
    if (to?.type === 'stream' && (to.streamId !== current.streamId || to.topic !== current.topic)) earlier.push('recipient');
    return earlier;
  }),
  MessageContentEdited: aboutMessage('messageId', ['editorId'], (d, current) => [
    'prevContent',
    'prevRenderedContent',
    ...(d.content !== current.content ? ['content', 'renderedContent'] : []),
  ]),
  MessagesMoved: aboutMessage('targetMessageId', ['messageIds', 'editorId', 'propagateMode'], (d, current) => [
    'origStreamId',
    'origTopic',
    ...(d.streamId !== current.streamId || d.topic !== current.topic ? ['streamId', 'streamName', 'topic'] : []),
  ]),
  MessageDeleted: aboutMessage('messageId', ['senderId', 'messageType', 'reason']),
  ReactionAdded: aboutMessage('messageId', ['userId']),
  ReactionRemoved: aboutMessage('messageId', ['userId']),
  SubmessageAdded: aboutMessage('messageId', ['senderId', 'submessageId']),

  // One user's own data.
  MessageFlagsChanged: ownData('userId'),
  UserTopicVisibilityPolicyChanged: ownData('userId'),
  DraftsCreated: ownData('userId'),
  DraftEdited: ownData('userId', ['draftId']),
  DraftsDeleted: ownData('userId', ['draftIds']),
  SavedSnippetCreated: ownData('userId', ['savedSnippetId']),
  SavedSnippetEdited: ownData('userId', ['savedSnippetId']),
  SavedSnippetDeleted: ownData('userId', ['savedSnippetId']),
  AlertWordsAdded: ownData('userId'),
  AlertWordsRemoved: ownData('userId'),
  UserMuted: ownData('userId'),
  UserUnmuted: ownData('userId'),
  SubscriptionPropertyChanged: ownData('userId', ['channelId', 'property']),
  ScheduledMessageCreated: ownData('senderId', ['scheduledMessageId']),
  ScheduledMessageEdited: ownData('senderId', ['scheduledMessageId']),
  ScheduledMessageDeleted: ownData('senderId', ['scheduledMessageId']),
  ScheduledMessageDeliveryClaimed: ownData('senderId', ['scheduledMessageId', 'messageId']),
  ScheduledMessageDelivered: ownData('senderId', ['scheduledMessageId', 'messageId']),
  ScheduledMessageDeliveryFailed: ownData('senderId', ['scheduledMessageId']),
  AttachmentUploaded: ownData('ownerId', ['attachmentId']),
  AttachmentDeleted: ownData('ownerId', ['attachmentId']),
  // Only the bot itself reads its storage (Zulip: the bot's own API key).
  BotStorageEntriesSet: ownData('botId'),
  BotStorageEntriesRemoved: ownData('botId'),
  ClientDeviceRegistered: ownData('userId', ['deviceId']),
  ClientDeviceRemoved: ownData('userId', ['deviceId'], pushSecrets),
  PushDeviceRegistered: ownData('userId', ['deviceId'], pushSecrets),
  PushKeyRotated: ownData('userId', ['deviceId'], pushSecrets),
  PushTokenRotated: ownData('userId', ['deviceId'], pushSecrets),
  LegacyPushTokenAdded: ownData('userId', [], pushSecrets),
  LegacyPushTokenRemoved: ownData('userId', [], pushSecrets),
};

/**
 * Field names that hold a secret whatever the event (a second net under the per-type lists): API
 * keys, password hashes, tokens of every kind, push keys.
 */
const SECRET_FIELD = /^(api_?key|password(_?hash)?|.*tokens?|push_?key|.*secret.*|encrypted.*)$/i;

/** What one reader may read of one event's values. */
export type EventReadability =
  /** Everything but secrets (and `hidden`: real addresses the reader may not read). */
  | { values: 'all'; hidden?: readonly string[] }
  /** The message's values, but not its earlier versions (edit history not allowed). */
  | { values: 'current'; current: CurrentMessage }
  /** Only the open fields. */
  | { values: 'open' };

/** The event's data as this reader may see it, and the fields hidden from them. */
export function redactEvent(type: string, data: Record<string, unknown>, readability: EventReadability): { data: Record<string, unknown>; hidden: string[] } {
  const rule = HISTORY_RULES[type];
  const secrets = new Set(rule?.secrets ?? []);
  let hide: (field: string) => boolean;
  if (!rule || readability.values === 'open') {
    // An undecided type shows only who and when (fail closed).
    const open = new Set<string>([...ALWAYS_OPEN, ...(rule && rule.read !== 'administrators' ? rule.open ?? [] : [])]);
    hide = (field) => !open.has(field);
  } else if (readability.values === 'current' && rule.read === 'message' && rule.versions) {
    const earlier = new Set(rule.versions(data, readability.current));
    hide = (field) => earlier.has(field);
  } else {
    const addresses = new Set(readability.values === 'all' ? readability.hidden ?? [] : []);
    hide = (field) => addresses.has(field);
  }
  const out: Record<string, unknown> = {};
  const hidden: string[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (secrets.has(field) || hide(field)) {
      out[field] = HIDDEN;
      hidden.push(field);
    } else {
      out[field] = withoutSecrets(value);
    }
  }
  // The net: a secret-named field anywhere, even one a rule forgot.
  for (const [field, value] of Object.entries(out)) {
    if (value !== HIDDEN && SECRET_FIELD.test(field)) {
      out[field] = HIDDEN;
      hidden.push(field);
    }
  }
  return { data: out, hidden };
}

/** A value with every secret-named field inside it (at any depth) replaced by `[hidden]`. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? HIDDEN : withoutSecrets(v)]));
}
