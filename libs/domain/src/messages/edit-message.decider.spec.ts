import { deciderSpec, messageSent, userFacts } from '@app/testing';
import {
  changeAllTimeLimitCutoffs,
  DEFAULT_REALM_MESSAGING_SETTINGS,
  defaultChannelGroupSettings,
  defaultRealmGroupSettings,
  type DeleteMessageFacts,
  DomainError,
  type EditChannelFacts,
  type EditMessageFacts,
  type MessageContentEdited,
  type MessageDeleted,
  type MessageEditEvent,
  messageDecider,
  messageHistory,
  type MessagesMoved,
  visibilityPolicyAfterMerge,
} from '@app/domain';

const given = deciderSpec(messageDecider);
const SENT = '2026-01-01T00:00:00.000Z';
const SENT_S = Date.parse(SENT) / 1000;
const after = (seconds: number) => new Date(Date.parse(SENT) + seconds * 1000).toISOString();
const hamlet = userFacts();
const cordelia = userFacts({ userId: 11, email: 'cordelia@acme.test', fullName: 'Cordelia Lear' });
const iago = userFacts({ userId: 2, email: 'iago@acme.test', fullName: 'Iago', role: 'administrator' });
const shiva = userFacts({ userId: 3, email: 'shiva@acme.test', fullName: 'Shiva', role: 'moderator' });
const polonius = userFacts({ userId: 12, email: 'polonius@acme.test', fullName: 'Polonius', role: 'guest' });

const channel = (overrides: Partial<EditChannelFacts> = {}): EditChannelFacts => ({
  streamId: 5, name: 'Denmark', inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false, isArchived: false,
  groupSettings: defaultChannelGroupSettings(null), subscriberIds: [10, 11], ...overrides,
});
const verona = channel({ streamId: 6, name: 'Verona', subscriberIds: [10, 12] });

/** hamlet edits message 100 ("hello" in Denmark > greetings) a minute after sending it; override what a test is about. */
const facts = (overrides: Partial<EditMessageFacts> = {}, request: Partial<EditMessageFacts['request']> = {}): EditMessageFacts => {
  const base = defaults(overrides, request);
  // Unless a test says otherwise, every message of the topic was sent with the target.
  if (!overrides.firstMessageIdSentAfter) base.firstMessageIdSentAfter = Object.fromEntries(changeAllTimeLimitCutoffs(base.settings, base.now).map((c) => [c, c < SENT_S ? (base.topicMessageIds[0] ?? null) : null]));
  return base;
};
/** The topic as the handler reads it: its ids and, for each time-limit cutoff, the first id sent after it. */
const inTopic = (messages: { id: number; sentAt: number }[], data: Partial<EditMessageFacts> = {}): Partial<EditMessageFacts> => {
  const now = data.now ?? after(60);
  const settings = data.settings ?? DEFAULT_REALM_MESSAGING_SETTINGS;
  const firstMessageIdSentAfter = Object.fromEntries(changeAllTimeLimitCutoffs(settings, now).map((c) => [c, messages.find((m) => m.sentAt > c)?.id ?? null]));
  return { ...data, topicMessageIds: messages.map((m) => m.id), firstMessageIdSentAfter };
};
const defaults = (overrides: Partial<EditMessageFacts>, request: Partial<EditMessageFacts['request']>): EditMessageFacts => ({
  realmId: 1, messageId: 100, now: after(60), editor: hamlet,
  request: { propagateMode: 'change_one', sendNotificationToOldThread: false, sendNotificationToNewThread: true, ...request },
  currentContentSha256: 'abc', location: { streamId: 5, topic: 'greetings' }, origChannel: channel(), targetChannel: null,
  settings: DEFAULT_REALM_MESSAGING_SETTINGS, realmGroups: defaultRealmGroupSettings(),
  topicMessageIds: [100], firstMessageIdSentAfter: {}, targetTopicHasMessages: false, origTopicPolicies: {}, targetTopicPolicies: {},
  mentionables: [], mentionableGroups: [], linkableChannels: [], canMentionManyUsers: false, topicParticipantIds: [10], emptyTopicDisplayName: 'general chat', maxMessageLength: 10000,
  ...overrides,
});
const edit = (overrides: Partial<EditMessageFacts> = {}, request: Partial<EditMessageFacts['request']> = {}) => ({ type: 'EditMessage' as const, data: facts(overrides, request) });
const sent = [messageSent({ at: SENT, recipientIds: [10, 11] })];
const dm = [messageSent({ at: SENT, recipient: { type: 'direct', participantIds: [10, 11] } })];

const errorOf = (command: ReturnType<typeof edit>, history: MessageEditEvent[] = sent): DomainError => {
  try {
    given(history).when(command).events();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected the edit to fail');
};
const eventsOf = (command: ReturnType<typeof edit>, history: MessageEditEvent[] = sent) => given(history).when(command).events();
const moveOf = (command: ReturnType<typeof edit>, history: MessageEditEvent[] = sent) => {
  const moved = eventsOf(command, history).find((e): e is MessagesMoved => e.type === 'MessagesMoved');
  if (!moved) throw new Error('expected MessagesMoved');
  return moved.data;
};

describe('messageDecider: content edits', () => {
  it('records the old and new content and rendering, the editor and the time', () =>
    given(sent).when(edit({}, { content: 'hello **again**' })).then([
      {
        type: 'MessageContentEdited',
        data: {
          realmId: 1, messageId: 100, editorId: 10, prevContent: 'hello', content: 'hello **again**', prevRenderedContent: '<p>hello</p>',
          renderedContent: '<p>hello <strong>again</strong></p>', isMeMessage: false, hasLink: false, hasImage: false, hasAttachment: false,
          mentionedUserIds: [], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [],
          prevMentionedUserIds: [], prevStreamWildcardMentioned: false, prevTopicWildcardMentionedUserIds: [], at: after(60),
        },
      },
    ]));

  it('only the sender may edit the content, even an administrator may not', () => {
    expect(errorOf(edit({ editor: cordelia }, { content: 'x' })).message).toBe("You don't have permission to edit this message");
    expect(errorOf(edit({ editor: iago }, { content: 'x' })).message).toBe("You don't have permission to edit this message");
  });

  it('refuses when the organization turned editing off', () =>
    expect(errorOf(edit({ settings: { ...DEFAULT_REALM_MESSAGING_SETTINGS, allow_message_editing: false } }, { content: 'x' })).message).toBe(
      'Your organization has turned off message editing',
    ));

  it('allows the limit plus Zulip\'s 20 s grace, not a second more; no limit when unlimited', () => {
    const settings = { ...DEFAULT_REALM_MESSAGING_SETTINGS, message_content_edit_limit_seconds: 600 };
    expect(eventsOf(edit({ settings, now: after(620) }, { content: 'x' }))).toHaveLength(1);
    expect(errorOf(edit({ settings, now: after(621) }, { content: 'x' })).message).toBe('The time limit for editing this message has passed');
    expect(eventsOf(edit({ settings: { ...settings, message_content_edit_limit_seconds: null }, now: after(10 ** 7) }, { content: 'x' }))).toHaveLength(1);
  });

  it('normalises as on send; empty content becomes "(deleted)"; long content is truncated', () => {
    const contentOf = (content: string) => (eventsOf(edit({}, { content }))[0] as MessageContentEdited).data.content;
    expect(contentOf('\n\nhi  \n')).toBe('hi');
    expect(contentOf('   ')).toBe('(deleted)');
    expect(contentOf('x'.repeat(10_050))).toHaveLength(10_000);
  });

  it('prev_content_sha256 must match the stored content (EXPECTATION_MISMATCH with field_name)', () => {
    expect(eventsOf(edit({}, { content: 'x', prevContentSha256: 'abc' }))).toHaveLength(1);
    expect(errorOf(edit({}, { content: 'x', prevContentSha256: 'nope' }))).toMatchObject({
      message: "'prev_content_sha256' value does not match the expected value.", code: 'EXPECTATION_MISMATCH', extra: { field_name: 'prev_content_sha256' },
    });
  });

  it('content together with stream_id is an error', () =>
    expect(errorOf(edit({ targetChannel: verona }, { content: 'x', streamId: 6 })).message).toBe('Cannot change message content while changing channel'));

  it('mentions follow the new content; wildcards need permission above 15 subscribers or participants', () => {
    const many = Array.from({ length: 16 }, (_, i) => 100 + i);
    const edited = eventsOf(edit({ mentionables: [cordelia] }, { content: '@**Cordelia Lear** @**topic**' }))[0] as MessageContentEdited;
    expect(edited.data).toMatchObject({ mentionedUserIds: [11], topicWildcardMentionedUserIds: [10] });
    // The next edit names what this one mentioned, so only those rows are touched.
    const next = given([...sent, edited]).when(edit({}, { content: 'plain' })).events()[0] as MessageContentEdited;
    expect(next.data).toMatchObject({ mentionedUserIds: [], prevMentionedUserIds: [11], prevTopicWildcardMentionedUserIds: [10], prevStreamWildcardMentioned: false });
    expect(errorOf(edit({ origChannel: channel({ subscriberIds: many }) }, { content: '@**all**' })).code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    expect(errorOf(edit({ topicParticipantIds: many }, { content: '@**topic**' })).code).toBe('TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
    expect(eventsOf(edit({ origChannel: channel({ subscriberIds: many }), canMentionManyUsers: true }, { content: '@**all**' }))).toHaveLength(1);
  });

  it('direct messages: content only', () => {
    expect(eventsOf(edit({ location: null, origChannel: null }, { content: 'x' }), dm)).toHaveLength(1);
    expect(errorOf(edit({ location: null, origChannel: null }, { topic: 'x' }), dm).message).toBe('Direct messages cannot have topics.');
    expect(errorOf(edit({ location: null, origChannel: null, targetChannel: verona }, { streamId: 6 }), dm).message).toBe('Direct messages cannot be moved to channels.');
  });

  it('an unknown or deleted message is an invalid message', () => {
    expect(errorOf(edit({}, { content: 'x' }), []).message).toBe('Invalid message(s)');
    expect(errorOf(edit({}, { content: 'x' }), [...sent, deleted()]).message).toBe('Invalid message(s)');
  });
});

describe('messageDecider: payload validation', () => {
  it('Nothing to change: no parameter, or the same topic', () => {
    expect(errorOf(edit()).message).toBe('Nothing to change');
    expect(errorOf(edit({}, { topic: ' greetings ' })).message).toBe('Nothing to change');
  });
  it('a propagate_mode other than change_one needs a topic or channel change', () =>
    expect(errorOf(edit({}, { content: 'x', propagateMode: 'change_all' })).message).toBe('Invalid propagate_mode without topic edit'));
  it('the empty topic cannot be resolved', () => {
    expect(errorOf(edit({}, { topic: '✔ ' })).message).toBe('General chat cannot be marked as resolved');
    expect(errorOf(edit({}, { topic: '✔ general chat' })).message).toBe('General chat cannot be marked as resolved');
  });
  it('the topic must be printable', () => expect(errorOf(edit({}, { topic: 'a\u0000b' })).message).toBe('Invalid character in topic, at position 2!'));
  it('"general chat" is the empty topic, refused where empty topics are disabled', () => {
    expect(moveOf(edit({}, { topic: 'general chat' })).topic).toBe('');
    expect(errorOf(edit({ settings: { ...DEFAULT_REALM_MESSAGING_SETTINGS, topics_policy: 'disable_empty_topic' } }, { topic: '' })).message).toBe(
      'Sending messages to the general chat is not allowed in this channel.',
    );
  });
  it('a topic is truncated to 60 characters', () => expect(moveOf(edit({}, { topic: 'y'.repeat(70) })).topic).toBe(`${'y'.repeat(57)}...`));
});

describe('messageDecider: topic edits and moves', () => {
  const topic = (data: Partial<EditMessageFacts> = {}, request: Partial<EditMessageFacts['request']> = {}) => edit(data, { topic: 'new', ...request });
  const nobodyMoves = { ...defaultRealmGroupSettings(), can_move_messages_between_topics_group: 'role:nobody' as const };

  it('moves one message by default, with old and new place, editor and time', () =>
    given(sent).when(topic()).then([
      {
        type: 'MessagesMoved',
        data: {
          realmId: 1, targetMessageId: 100, messageIds: [100], propagateMode: 'change_one', origStreamId: 5, origTopic: 'greetings', streamId: 5,
          streamName: 'Denmark', topic: 'new', resolution: null, userIdsLosingRows: [], userIdsGainingRows: [], editorId: 10, at: after(60),
        },
      },
    ]));

  it('change_later takes the target and later messages; change_all the whole (accessible) topic', () => {
    const topicMessageIds = [99, 100, 101, 102];
    expect(moveOf(topic({ topicMessageIds }, { propagateMode: 'change_later' })).messageIds).toEqual([100, 101, 102]);
    expect(moveOf(topic({ topicMessageIds }, { propagateMode: 'change_all' })).messageIds).toEqual([99, 100, 101, 102]);
  });

  it('anyone in can_move_messages_between_topics_group may move others\' messages (default: everyone, guests included)', () => {
    expect(eventsOf(topic({ editor: cordelia }))).toHaveLength(1);
    expect(eventsOf(topic({ editor: polonius }))).toHaveLength(1);
  });

  it('without the organization permission: the channel\'s can_move_messages_within_channel_group, or administrators', () => {
    expect(errorOf(topic({ editor: cordelia, realmGroups: nobodyMoves })).message).toBe("You don't have permission to edit this message");
    const within = channel({ groupSettings: { ...defaultChannelGroupSettings(null), can_move_messages_within_channel_group: { direct_members: [11], direct_subgroups: [] } } });
    expect(eventsOf(topic({ editor: cordelia, realmGroups: nobodyMoves, origChannel: within }))).toHaveLength(1);
    expect(eventsOf(topic({ editor: iago, realmGroups: nobodyMoves }))).toHaveLength(1);
  });

  it('channel administrators (can_administer_channel_group) may move topics in their channel', () => {
    const administered = channel({ groupSettings: { ...defaultChannelGroupSettings(11) } });
    expect(eventsOf(topic({ editor: cordelia, realmGroups: nobodyMoves, origChannel: administered }))).toHaveLength(1);
    expect(errorOf(topic({ editor: cordelia, realmGroups: nobodyMoves })).message).toBe("You don't have permission to edit this message");
  });

  it('the target channel\'s can_move_messages_within_channel_group counts too (topic and channel changed at once)', () => {
    const within = { ...verona, groupSettings: { ...verona.groupSettings, can_move_messages_within_channel_group: { system: 'role:members' as const } } };
    expect(eventsOf(topic({ editor: cordelia, realmGroups: nobodyMoves, targetChannel: within }, { streamId: 6 }))).toHaveLength(1);
  });

  it('stream_id naming the message\'s own channel is no channel change', () =>
    expect(errorOf(edit({ targetChannel: channel() }, { streamId: 5 })).message).toBe('Nothing to change'));

  it('prev_content_sha256 is checked for topic-only edits too', () =>
    expect(errorOf(topic({}, { prevContentSha256: 'nope' })).code).toBe('EXPECTATION_MISMATCH'));

  it('non-moderators move topics only within move_messages_within_stream_limit_seconds (+20 s)', () => {
    const settings = { ...DEFAULT_REALM_MESSAGING_SETTINGS, move_messages_within_stream_limit_seconds: 100 };
    expect(eventsOf(topic({ settings, now: after(120) }))).toHaveLength(1);
    expect(errorOf(topic({ settings, now: after(121) })).message).toBe("The time limit for editing this message's topic has passed.");
    expect(eventsOf(topic({ settings, now: after(10_000), editor: shiva }))).toHaveLength(1);
  });

  it('change_all by a non-moderator with too old messages: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with the three fields', () => {
    const settings = { ...DEFAULT_REALM_MESSAGING_SETTINGS, move_messages_within_stream_limit_seconds: 100 };
    const topicMessages = [{ id: 98, sentAt: SENT_S - 1000 }, { id: 99, sentAt: SENT_S - 500 }, { id: 100, sentAt: SENT_S }, { id: 101, sentAt: SENT_S + 30 }];
    expect(errorOf(topic(inTopic(topicMessages, { settings }), { propagateMode: 'change_all' }))).toMatchObject({
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      message: 'You only have permission to move the 2/4 most recent messages in this topic.',
      extra: { first_message_id_allowed_to_move: 100, total_messages_allowed_to_move: 2, total_messages_in_topic: 4 },
    });
    expect(moveOf(topic(inTopic(topicMessages, { settings }), { propagateMode: 'change_later' })).messageIds).toEqual([100, 101]);
    expect(moveOf(topic(inTopic(topicMessages, { settings, editor: shiva }), { propagateMode: 'change_all' })).messageIds).toEqual([98, 99, 100, 101]);
  });

  it('first_message_id_allowed_to_move is null when no message may move (administrators are not limited)', () => {
    const settings = { ...DEFAULT_REALM_MESSAGING_SETTINGS, move_messages_within_stream_limit_seconds: 100, move_messages_between_streams_limit_seconds: 50 };
    const topicMessages = [{ id: 99, sentAt: SENT_S - 1000 }, { id: 100, sentAt: SENT_S - 900 }];
    expect(moveOf(topic(inTopic(topicMessages, { settings, now: after(0), editor: iago }), { propagateMode: 'change_all' })).messageIds).toEqual([99, 100]);
    expect(errorOf(topic(inTopic(topicMessages, { settings, now: after(0), editor: cordelia }), { propagateMode: 'change_all' })).extra).toEqual({
      first_message_id_allowed_to_move: null, total_messages_allowed_to_move: 0, total_messages_in_topic: 2,
    });
  });

  it('the whole visible topic moved: visibility policies follow it, merged with the target topic\'s', () => {
    const events = eventsOf(topic({ origTopicPolicies: { 10: 3, 11: 1 }, targetTopicPolicies: { 11: 2 }, targetTopicHasMessages: true }, { propagateMode: 'change_all' }));
    expect(events.slice(1).map((e) => e.type === 'UserTopicVisibilityPolicyChanged' && [e.data.userId, e.data.topic, e.data.oldPolicy, e.data.newPolicy])).toEqual([
      [10, 'greetings', 3, 0],
      [10, 'new', 0, 3],
      [11, 'greetings', 1, 0],
    ]);
    // Clearing the original topic skips the deprecated muted_topics event; setting the target's does not.
    expect(events.slice(1).map((e) => e.type === 'UserTopicVisibilityPolicyChanged' && e.data.skipMutedTopicsEvent)).toEqual([true, false, true]);
  });

  it('a partial move leaves visibility policies alone', () =>
    expect(eventsOf(topic({ origTopicPolicies: { 10: 3 }, topicMessageIds: [100, 101] }))).toHaveLength(1));

  it('visibility merge: followed, then unmuted, then inherit over muted', () => {
    expect(visibilityPolicyAfterMerge(1, 3)).toBe(3);
    expect(visibilityPolicyAfterMerge(1, 2)).toBe(2);
    expect(visibilityPolicyAfterMerge(1, 0)).toBe(0);
    expect(visibilityPolicyAfterMerge(1, 1)).toBe(1);
  });
});

describe('messageDecider: resolve and unresolve', () => {
  const nobodyResolves = { ...defaultRealmGroupSettings(), can_resolve_topics_group: 'role:nobody' as const, can_move_messages_between_topics_group: 'role:nobody' as const };
  const resolved = [messageSent({ at: SENT, recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: '✔ greetings' } })];

  it('"✔ " + the topic resolves; the original topic unresolves', () => {
    expect(moveOf(edit({}, { topic: '✔ greetings', propagateMode: 'change_all' }))).toMatchObject({ topic: '✔ greetings', resolution: 'resolved' });
    expect(moveOf(edit({ location: { streamId: 5, topic: '✔ greetings' } }, { topic: 'greetings', propagateMode: 'change_all' }), resolved)).toMatchObject({
      topic: 'greetings', resolution: 'unresolved',
    });
    expect(moveOf(edit({}, { topic: '✔ other' })).resolution).toBeNull();
  });

  it('needs can_resolve_topics_group (organization or channel), not the topic-move permission', () => {
    expect(errorOf(edit({ editor: cordelia, realmGroups: nobodyResolves }, { topic: '✔ greetings' })).message).toBe("You don't have permission to resolve topics in this channel.");
    const resolvers = channel({ groupSettings: { ...defaultChannelGroupSettings(null), can_resolve_topics_group: { system: 'role:members' } } });
    expect(eventsOf(edit({ editor: cordelia, realmGroups: nobodyResolves, origChannel: resolvers }, { topic: '✔ greetings' }))).toHaveLength(1);
  });

  it('is not held to the move time limits', () => {
    const settings = { ...DEFAULT_REALM_MESSAGING_SETTINGS, move_messages_within_stream_limit_seconds: 10 };
    const topicMessages = [{ id: 99, sentAt: SENT_S - 10_000 }, { id: 100, sentAt: SENT_S }];
    expect(moveOf(edit(inTopic(topicMessages, { settings, now: after(5000) }), { topic: '✔ greetings', propagateMode: 'change_all' })).messageIds).toEqual([99, 100]);
  });
});

describe('messageDecider: moves between channels', () => {
  const move = (data: Partial<EditMessageFacts> = {}, request: Partial<EditMessageFacts['request']> = {}) => edit({ targetChannel: verona, ...data }, { streamId: 6, ...request });

  it('moves to the channel, keeping the topic; subscribers of the old channel only lose their rows', () =>
    expect(moveOf(move())).toMatchObject({ origStreamId: 5, streamId: 6, topic: 'greetings', userIdsLosingRows: [11], userIdsGainingRows: [] }));

  it('past subscribers of the old channel (Zulip: every Subscription row) lose their rows too', () =>
    expect(moveOf(move({ origChannelPastSubscriberIds: [13, 11] })).userIdsLosingRows).toEqual([11, 13]));

  it('subscribers of a new channel with protected history gain rows', () =>
    expect(moveOf(move({ targetChannel: { ...verona, inviteOnly: true, historyPublicToSubscribers: false } })).userIdsGainingRows).toEqual([10, 12]));

  it('a channel the editor cannot access is an invalid channel', () => expect(errorOf(move({ targetChannel: null })).message).toBe('Invalid channel ID'));

  it('needs can_move_messages_between_channels_group (default: members; not guests)', () => {
    expect(eventsOf(move({ editor: cordelia }))).toHaveLength(1);
    expect(errorOf(move({ editor: polonius })).message).toBe("You don't have permission to move this message");
    const nobody = { ...defaultRealmGroupSettings(), can_move_messages_between_channels_group: 'role:nobody' as const };
    expect(errorOf(move({ editor: cordelia, realmGroups: nobody })).message).toBe("You don't have permission to move this message");
    expect(eventsOf(move({ editor: iago, realmGroups: nobody }))).toHaveLength(1);
    const outOf = channel({ groupSettings: { ...defaultChannelGroupSettings(null), can_move_messages_out_of_channel_group: { system: 'role:everyone' } } });
    expect(eventsOf(move({ editor: polonius, origChannel: outOf }))).toHaveLength(1);
  });

  it('needs the right to post in the target channel', () => {
    const closed = { ...verona, groupSettings: { ...verona.groupSettings, can_send_message_group: { system: 'role:administrators' as const } } };
    expect(errorOf(move({ targetChannel: closed })).message).toBe('You do not have permission to post in this channel.');
  });

  it('non-moderators move between channels only within move_messages_between_streams_limit_seconds (+20 s)', () => {
    const settings = { ...DEFAULT_REALM_MESSAGING_SETTINGS, move_messages_between_streams_limit_seconds: 100 };
    expect(errorOf(move({ settings, now: after(121) })).message).toBe("The time limit for editing this message's channel has passed");
    expect(eventsOf(move({ settings, now: after(121), editor: shiva }))).toHaveLength(1);
  });

  it('users losing access to a private channel lose their topic visibility policy', () => {
    const events = eventsOf(move({ targetChannel: { ...verona, inviteOnly: true }, origTopicPolicies: { 11: 3 } }, { propagateMode: 'change_all' }));
    expect(events.slice(1).map((e) => e.type === 'UserTopicVisibilityPolicyChanged' && [e.data.userId, e.data.streamId, e.data.newPolicy])).toEqual([[11, 5, 0]]);
  });
});

const deleteFacts = (overrides: Partial<DeleteMessageFacts> = {}): DeleteMessageFacts => ({
  realmId: 1, messageId: 100, now: after(60), actor: hamlet, location: { streamId: 5, topic: 'greetings' }, channelGroups: defaultChannelGroupSettings(null),
  senderIsOwnBot: false, canDeleteAnyMessageGroup: 'role:administrators', canDeleteOwnMessageGroup: 'role:everyone', deleteLimitSeconds: null, ...overrides,
});
const remove = (overrides: Partial<DeleteMessageFacts> = {}) => ({ type: 'DeleteMessage' as const, data: deleteFacts(overrides) });
const deleted = (): MessageDeleted => ({
  type: 'MessageDeleted', data: { realmId: 1, messageId: 100, senderId: 10, messageType: 'stream', streamId: 5, topic: 'greetings', actorId: 10, at: after(60) },
});

describe('messageDecider: DeleteMessage', () => {
  it('the sender deletes their own message', () => given(sent).when(remove()).then([deleted()]));
  it('administrators delete any message', () => expect(given(sent).when(remove({ actor: iago })).events()).toHaveLength(1));
  it('others may not', () => given(sent).when(remove({ actor: cordelia })).thenThrows(DomainError, "You don't have permission to delete this message"));
  it('a bot\'s owner may delete the bot\'s messages', () => expect(given(sent).when(remove({ actor: cordelia, senderIsOwnBot: true })).events()).toHaveLength(1));
  it('the channel\'s can_delete_any_message_group grants it too', () =>
    expect(given(sent).when(remove({ actor: cordelia, channelGroups: { ...defaultChannelGroupSettings(null), can_delete_any_message_group: { system: 'role:members' } } })).events()).toHaveLength(1));
  it('own messages only within the delete limit', () =>
    given(sent).when(remove({ deleteLimitSeconds: 30 })).thenThrows(DomainError, 'The time limit for deleting this message has passed'));
  it('own messages only with can_delete_own_message_group', () =>
    given(sent).when(remove({ canDeleteOwnMessageGroup: 'role:nobody' })).thenThrows(DomainError, "You don't have permission to delete this message"));
  it('twice: already deleted', () => given([...sent, deleted()]).when(remove()).thenThrows(DomainError, 'Message already deleted'));
  it('a topic deletion (delete_in_topic) skips the permission checks and messages already deleted', () => {
    expect(given(sent).when(remove({ actor: cordelia, canDeleteOwnMessageGroup: 'role:nobody', topicDeletion: true })).events()).toHaveLength(1);
    given([...sent, deleted()]).when(remove({ topicDeletion: true })).thenNothingHappened();
  });
  it('the fold forgets a deleted message\'s text, so no snapshot taken after holds it', () => {
    const state = [...sent, deleted()].reduce(messageDecider.evolve, messageDecider.initialState());
    expect(state).toMatchObject({ deleted: true, content: '', renderedContent: '', topic: null });
    expect(JSON.stringify(state)).not.toContain('hello');
    expect(JSON.stringify(state)).not.toContain('greetings');
  });
  it('a deletion forgets the snapshots of the message, its reactions and its submessages; nothing else does', () => {
    const forgets = messageDecider.snapshot!.forgets!;
    expect(forgets(deleted())).toEqual(['message-100', 'message_reactions-100', 'message_submessages-100']);
    expect(forgets(sent[0])).toEqual([]);
  });
});

describe('messageDecider: alert words', () => {
  const alertWords = { 10: ['soup'], 11: ['Bread'], 12: ['never'] };
  it('flags the users whose words the new content holds, and names those flagged before', () => {
    const [first] = eventsOf(edit({ alertWords }, { content: 'Soup and BREAD!' }));
    expect(first).toMatchObject({ type: 'MessageContentEdited', data: { alertWordUserIds: [10, 11], prevAlertWordUserIds: [] } });
    const [second] = eventsOf(edit({ alertWords }, { content: 'just bread' }), [...sent, first as MessageEditEvent]);
    expect(second).toMatchObject({ data: { alertWordUserIds: [11], prevAlertWordUserIds: [10, 11] } });
  });
  it('leaves the fields out when nobody was or is alerted', () => {
    const [event] = eventsOf(edit({ alertWords }, { content: 'nothing here' }));
    expect(event.data).not.toHaveProperty('alertWordUserIds');
    expect(event.data).not.toHaveProperty('prevAlertWordUserIds');
  });
});

describe('messageHistory', () => {
  it('the message as sent, then one snapshot per edit (a content edit and a move at once are one)', () => {
    const history = [
      ...sent,
      { type: 'MessageContentEdited', data: { ...(eventsOf(edit({}, { content: 'v2' }))[0] as MessageContentEdited).data, at: after(10) } },
      ...eventsOf(edit({ now: after(20) }, { content: 'v3', topic: 'moved' }), sent),
      { type: 'MessagesMoved', data: { ...moveOf(edit({ targetChannel: verona, now: after(30), editor: iago }, { streamId: 6 })), topic: 'moved' } },
    ] as MessageEditEvent[];
    expect(messageHistory(100, history)).toEqual([
      { user_id: 10, timestamp: SENT_S, topic: 'greetings', content: 'hello', rendered_content: '<p>hello</p>' },
      { user_id: 10, timestamp: SENT_S + 10, topic: 'greetings', content: 'v2', rendered_content: '<p>v2</p>', prev_content: 'hello', prev_rendered_content: '<p>hello</p>' },
      {
        user_id: 10, timestamp: SENT_S + 20, topic: 'moved', content: 'v3', rendered_content: '<p>v3</p>', prev_content: 'hello', prev_rendered_content: '<p>hello</p>',
        prev_topic: 'greetings',
      },
      { user_id: 2, timestamp: SENT_S + 30, topic: 'moved', content: 'v3', rendered_content: '<p>v3</p>', prev_stream: 5, stream: 6 },
    ]);
  });
});

describe('messageDecider: EditMessage and the target channel\'s topics_policy (get_stream_topics_policy)', () => {
  const allow = { ...DEFAULT_REALM_MESSAGING_SETTINGS, topics_policy: 'allow_empty_topic' as const };
  it('refuses a named topic in an empty_topic_only channel: "Only the general chat topic is allowed in this channel."', () => {
    expect(errorOf(edit({ origChannel: channel({ topicsPolicy: 'empty_topic_only' }) }, { topic: 'other' })).message).toBe(
      'Only the general chat topic is allowed in this channel.',
    );
    expect(errorOf(edit({ targetChannel: channel({ streamId: 6, name: 'Verona', topicsPolicy: 'empty_topic_only' }) }, { streamId: 6 })).message).toBe(
      'Only the general chat topic is allowed in this channel.',
    );
  });
  it('moves into the empty topic of an empty_topic_only channel', () =>
    expect(moveOf(edit({ targetChannel: channel({ streamId: 6, name: 'Verona', topicsPolicy: 'empty_topic_only' }) }, { streamId: 6, topic: '' })).topic).toBe(''));
  it('the channel\'s disable_empty_topic wins over the organization\'s allow_empty_topic; "inherit" follows the organization', () => {
    expect(errorOf(edit({ settings: allow, origChannel: channel({ topicsPolicy: 'disable_empty_topic' }) }, { topic: '' })).message).toBe(
      'Sending messages to the general chat is not allowed in this channel.',
    );
    expect(moveOf(edit({ settings: allow, origChannel: channel({ topicsPolicy: 'inherit' }) }, { topic: '' })).topic).toBe('');
  });
});
