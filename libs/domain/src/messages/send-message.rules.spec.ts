import { channelFacts, deciderSpec, directoryOf, sendMessage, userFacts, userTopicPolicyChanged } from '@app/testing';
import { AUTOMATIC_POLICY, automaticNewVisibilityPolicy, DEFAULT_TOPIC_AUTOMATION, DomainError, messageDecider, sendPolicyDependsOnInitiation, type SendMessageFacts } from '@app/domain';

const given = deciderSpec(messageDecider);
const hamlet = userFacts();
const cordelia = userFacts({ userId: 11, email: 'cordelia@acme.test', fullName: 'Cordelia Lear' });
const iago = userFacts({ userId: 2, email: 'iago@acme.test', fullName: 'Iago', role: 'administrator' });
const polonius = userFacts({ userId: 12, email: 'polonius@acme.test', fullName: 'Polonius', role: 'guest' });
const gone = userFacts({ userId: 13, email: 'gone@acme.test', fullName: 'Gone', isActive: false });
const bot = userFacts({ userId: 20, email: 'bot-bot@acme.test', fullName: 'Helper Bot', isBot: true, botType: 'generic', botOwnerId: 11 });
const directory = directoryOf(hamlet, cordelia, iago, polonius, gone, bot);

const errorOf = (overrides: Partial<SendMessageFacts>): DomainError => {
  try {
    given([]).when(sendMessage(overrides)).events();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected the send to fail');
};
const eventsOf = (overrides: Partial<SendMessageFacts>) => given([]).when(sendMessage(overrides)).events();
const sentWith = (overrides: Partial<SendMessageFacts>) => {
  const [sent] = eventsOf(overrides);
  if (sent.type !== 'MessageSent') throw new Error('expected MessageSent');
  return sent.data;
};
const many = (n: number, from = 100) => Array.from({ length: n }, (_, i) => from + i);

describe('messageDecider: SendMessage to a channel', () => {
  it('records the whole message, its rendering and its recipients', () =>
    given([]).when(sendMessage({ subscriberIds: [10, 11] })).thenMatches([
      {
        type: 'MessageSent',
        data: {
          realmId: 1, messageId: 100, senderId: 10, recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: 'greetings' },
          content: 'hello', renderedContent: '<p>hello</p>', client: 'ZulipMobile', recipientIds: [10, 11], readUserIds: [10],
          mentionedUserIds: [], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [], at: '2026-01-01T00:00:00.000Z',
        },
      },
    ]));

  it('names the channel by id, and by name case-insensitively', () => {
    expect(sentWith({ to: '5' }).recipient).toMatchObject({ streamId: 5 });
    expect(sentWith({ to: '["denmark"]' }).recipient).toMatchObject({ streamId: 5, streamName: 'Denmark' });
  });

  it('answers STREAM_DOES_NOT_EXIST with the (escaped) name, or the id', () => {
    const byName = errorOf({ to: 'No<where>', channel: null });
    expect(byName).toMatchObject({ message: "Channel 'No&lt;where&gt;' does not exist", code: 'STREAM_DOES_NOT_EXIST', extra: { stream: 'No&lt;where&gt;' } });
    const byId = errorOf({ to: '99', channel: null });
    expect(byId).toMatchObject({ message: "Channel with ID '99' does not exist", code: 'STREAM_DOES_NOT_EXIST', extra: { stream_id: 99 } });
  });

  it('checks the channel name first', () => {
    expect(errorOf({ to: '  ' }).message).toBe("Channel name can't be empty.");
    expect(errorOf({ to: 'x'.repeat(61) }).message).toBe('Channel name too long (limit: 60 characters).');
  });

  it('keeps the unsubscribed sender of a public channel out of the recipients', () =>
    expect(sentWith({ subscriberIds: [11] })).toMatchObject({ recipientIds: [11], readUserIds: [] }));

  it('refuses a private channel the sender is not subscribed to, and an archived one', () => {
    expect(errorOf({ channel: channelFacts({ inviteOnly: true }), subscriberIds: [11] }).message).toBe("Not authorized to send to channel 'Denmark'");
    expect(errorOf({ channel: channelFacts({ isArchived: true }) }).message).toBe("Not authorized to send to channel 'Denmark'");
  });

  it('lets guests post only where they are subscribed', () => {
    expect(errorOf({ sender: polonius, subscriberIds: [10] }).message).toBe("Not authorized to send to channel 'Denmark'");
    expect(sentWith({ sender: polonius, subscriberIds: [12] }).recipientIds).toEqual([12]);
  });

  it('lets a bot post to a private channel its owner is subscribed to', () =>
    expect(sentWith({ sender: bot, channel: channelFacts({ inviteOnly: true }), subscriberIds: [11], botOwnerSubscribed: true }).recipientIds).toEqual([11]));

  it("refuses senders the channel's can_send_message_group excludes", () =>
    expect(errorOf({ senderMayPost: false }).message).toBe('You do not have permission to post in this channel.'));
});

describe('messageDecider: SendMessage and the topics policy (get_stream_topics_policy)', () => {
  const refusal = 'Sending messages to the general chat is not allowed in this channel.';

  it('refuses the empty topic under disable_empty_topic, whichever way it is named', () => {
    for (const topic of ['', '  ', '(no topic)', 'general chat']) {
      expect(errorOf({ topicsPolicy: 'disable_empty_topic', topic })).toMatchObject({ message: refusal, code: 'BAD_REQUEST', httpStatus: 400 });
    }
  });

  it('names the empty topic by its display name', () =>
    expect(errorOf({ topicsPolicy: 'disable_empty_topic', topic: '', emptyTopicDisplayName: 'allgemeiner Chat' }).message).toBe(
      'Sending messages to the allgemeiner Chat is not allowed in this channel.',
    ));

  it('still accepts named topics under disable_empty_topic', () =>
    expect(sentWith({ topicsPolicy: 'disable_empty_topic', topic: 'greetings' }).recipient).toMatchObject({ topic: 'greetings' }));

  it('accepts the empty topic under allow_empty_topic', () =>
    expect(sentWith({ topicsPolicy: 'allow_empty_topic', topic: '(no topic)' }).recipient).toMatchObject({ topic: '' }));

  it('checks the right to post first, as check_message does', () =>
    expect(errorOf({ topicsPolicy: 'disable_empty_topic', topic: '', senderMayPost: false }).message).toBe(
      'You do not have permission to post in this channel.',
    ));

  it('does not apply to direct messages', () =>
    expect(sentWith({ topicsPolicy: 'disable_empty_topic', type: 'direct', to: '[11]', topic: undefined, directory }).recipient.type).toBe('direct'));
});

describe('messageDecider: SendMessage to a channel whose topics_policy is empty_topic_only', () => {
  it('refuses a named topic: "Only the general chat topic is allowed in this channel."', () =>
    expect(errorOf({ topicsPolicy: 'empty_topic_only', topic: 'greetings' })).toMatchObject({
      message: 'Only the general chat topic is allowed in this channel.', code: 'BAD_REQUEST', httpStatus: 400,
    }));

  it('accepts the empty topic, whichever way it is named', () => {
    for (const topic of ['', '(no topic)', 'general chat']) expect(sentWith({ topicsPolicy: 'empty_topic_only', topic }).recipient).toMatchObject({ topic: '' });
  });

  it('names the empty topic by its display name', () =>
    expect(errorOf({ topicsPolicy: 'empty_topic_only', topic: 'x', emptyTopicDisplayName: 'allgemeiner Chat' }).message).toBe(
      'Only the allgemeiner Chat topic is allowed in this channel.',
    ));
});

describe('messageDecider: SendMessage to users', () => {
  const dm = (to: string, extra: Partial<SendMessageFacts> = {}) => sentWith({ type: 'direct', to, directory, ...extra });

  it('sends to the named users and the sender, by id or by email', () => {
    expect(dm('[11]')).toMatchObject({ recipient: { type: 'direct', participantIds: [10, 11] }, recipientIds: [10, 11], readUserIds: [10] });
    expect(dm('CORDELIA@acme.test,iago@acme.test').recipient).toEqual({ type: 'direct', participantIds: [2, 10, 11] });
  });

  it('ignores the sender among other recipients, and sends to the sender alone', () => {
    expect(dm('[10, 11]').recipient).toEqual({ type: 'direct', participantIds: [10, 11] });
    expect(dm('[10]')).toMatchObject({ recipient: { type: 'direct', participantIds: [10] }, recipientIds: [10] });
  });

  it('accepts the deprecated type "private"', () => expect(sentWith({ type: 'private', to: '[11]', directory }).recipient.type).toBe('direct'));

  it('names unknown users and deactivated ones as Zulip does', () => {
    expect(errorOf({ type: 'direct', to: '[11, 999]', directory }).message).toBe('Invalid user ID 999');
    expect(errorOf({ type: 'direct', to: 'nobody@acme.test', directory }).message).toBe("Invalid email 'nobody@acme.test'");
    expect(errorOf({ type: 'direct', to: '[13]', directory }).message).toBe("'gone@acme.test' is no longer using Zulip.");
  });

  it('resolves users before looking at the content', () =>
    expect(errorOf({ type: 'direct', to: '[999]', directory, content: '' }).message).toBe('Invalid user ID 999'));

  it('has no topic, wildcard limits or topic visibility changes', () => {
    const events = eventsOf({ type: 'direct', to: '[11]', directory, content: '@**all**', subscriberIds: many(50) });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ data: { streamWildcardMentioned: true, recipientIds: [10, 11] } });
  });
});

describe('messageDecider: mentions and per-user state', () => {
  const mentionables = [hamlet, cordelia, polonius, bot];

  it('flags has_alert_word for recipients (the sender included) whose alert words the content holds', () => {
    const alertWords = { 10: ['soup'], 11: ['BREAD'], 12: ['soup'], 2: ['nothing'] };
    expect(sentWith({ content: 'Soup, then bread.', alertWords, subscriberIds: [10, 11, 2] }).alertWordUserIds).toEqual([10, 11]);
    expect(sentWith({ content: 'soupy breadcrumbs', alertWords, subscriberIds: [10, 11] })).not.toHaveProperty('alertWordUserIds');
  });

  it('marks mentioned recipients, and only recipients', () =>
    expect(sentWith({ content: '@**Cordelia Lear** @**Polonius**', mentionables, subscriberIds: [10, 11] })).toMatchObject({
      recipientIds: [10, 11], mentionedUserIds: [11],
    }));

  it("flags the members of a mentioned group (through subgroups), recipients only, and refuses a group the sender may not mention", () => {
    const group = { id: 1000001, name: 'support', memberIds: [11, 12, 99], canMention: true };
    expect(sentWith({ content: 'hi @*support*', mentionableGroups: [group], subscriberIds: [10, 11, 12] })).toMatchObject({ recipientIds: [10, 11, 12], mentionedUserIds: [11, 12] });
    expect(sentWith({ content: 'hi @_*support*', mentionableGroups: [group], subscriberIds: [10, 11, 12] })).toMatchObject({ mentionedUserIds: [] });
    expect(errorOf({ content: 'hi @*support*', mentionableGroups: [{ ...group, canMention: false }], subscriberIds: [10, 11] }).message).toBe("You are not allowed to mention user group 'support'.");
    expect(sentWith({ content: 'hi @_*support*', mentionableGroups: [{ ...group, canMention: false }], subscriberIds: [10, 11] })).toMatchObject({ mentionedUserIds: [] });
  });

  it('gives a mentioned generic bot a row even when not subscribed', () =>
    expect(sentWith({ content: 'hey @**Helper Bot**', mentionables, subscriberIds: [10] })).toMatchObject({ recipientIds: [10, 20], mentionedUserIds: [20] }));

  it('starts unread for the sender without read_by_sender', () => expect(sentWith({ readBySender: false }).readUserIds).toEqual([]));

  it('marks every recipient for a channel wildcard, and topic participants for a topic wildcard', () => {
    expect(sentWith({ content: '@**everyone**', subscriberIds: [10, 11, 12] }).streamWildcardMentioned).toBe(true);
    expect(sentWith({ content: '@**topic**', subscriberIds: [10, 11, 12], topicParticipantIds: [11, 99] }).topicWildcardMentionedUserIds).toEqual([10, 11]);
  });

  describe('wildcard permissions (more than 15 subscribers or participants)', () => {
    it('lets anyone use channel wildcards in channels of up to 15 subscribers', () =>
      expect(sentWith({ content: '@**all**', subscriberIds: many(15) }).streamWildcardMentioned).toBe(true));

    it.each(['all', 'everyone', 'channel', 'stream'])('refuses @**%s** in bigger channels without can_mention_many_users_group', (name) => {
      const error = errorOf({ content: `@**${name}**`, subscriberIds: many(16) });
      expect({ message: error.message, code: error.code }).toEqual({
        message: 'You do not have permission to use channel wildcard mentions in this channel.',
        code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      });
    });

    it('allows members of can_mention_many_users_group', () =>
      expect(sentWith({ sender: iago, content: '@**all**', subscriberIds: many(16), canMentionManyUsers: true }).streamWildcardMentioned).toBe(true));

    it('counts topic participants, the sender included, for @**topic**', () => {
      expect(sentWith({ content: '@**topic**', topicParticipantIds: many(14) }).topicWildcardMentionedUserIds).toEqual([10]);
      const error = errorOf({ content: '@**topic**', topicParticipantIds: many(15) });
      expect({ message: error.message, code: error.code }).toEqual({
        message: 'You do not have permission to use topic wildcard mentions in this topic.',
        code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      });
    });

    it('ignores wildcards in code and silent wildcards', () => {
      expect(sentWith({ content: '`@**all**`', subscriberIds: many(20) }).streamWildcardMentioned).toBe(false);
      expect(sentWith({ content: '@_**all**', subscriberIds: many(20) }).streamWildcardMentioned).toBe(false);
    });
  });
});

describe('messageDecider: automatic topic visibility', () => {
  it('follows a topic for the sender who starts it (automatic_new_visibility_policy 3)', () => {
    const events = eventsOf({ topicHasVisibleMessages: false });
    expect(events[1]).toEqual(userTopicPolicyChanged({ oldPolicy: 0, newPolicy: 3 }));
    expect(automaticNewVisibilityPolicy(events, 10)).toBe(3);
  });

  it('changes nothing when the topic existed or is followed already', () => {
    expect(eventsOf({ topicHasVisibleMessages: true })).toHaveLength(1);
    expect(eventsOf({ topicHasVisibleMessages: false, topicPolicies: { 10: 3 } })).toHaveLength(1);
  });

  it('unmutes the topic of a muted channel on send (automatic_new_visibility_policy 2)', () =>
    expect(automaticNewVisibilityPolicy(eventsOf({ senderMutedChannel: true }), 10)).toBe(2));

  it('never changes a bot sender\'s topics', () => expect(eventsOf({ sender: bot, topicHasVisibleMessages: false, subscriberIds: [20] })).toHaveLength(1));

  it('depends on whether the sender initiates the topic only while nothing else decides (what the facts loader reads it for)', () => {
    // Default settings (follow on initiation): an inherited policy depends on it, a followed or muted one does not.
    expect(sendPolicyDependsOnInitiation(DEFAULT_TOPIC_AUTOMATION, 0, false)).toBe(true);
    expect(sendPolicyDependsOnInitiation(DEFAULT_TOPIC_AUTOMATION, 3, false)).toBe(false);
    expect(sendPolicyDependsOnInitiation(DEFAULT_TOPIC_AUTOMATION, 1, false)).toBe(false);
    expect(sendPolicyDependsOnInitiation(DEFAULT_TOPIC_AUTOMATION, 0, true)).toBe(true);
    // Settings that follow on every send, or never change anything, never depend on it.
    expect(sendPolicyDependsOnInitiation({ ...DEFAULT_TOPIC_AUTOMATION, followTopics: AUTOMATIC_POLICY.ON_SEND }, 0, false)).toBe(false);
    expect(sendPolicyDependsOnInitiation({ ...DEFAULT_TOPIC_AUTOMATION, followTopics: AUTOMATIC_POLICY.NEVER, unmuteTopicsInMutedChannels: AUTOMATIC_POLICY.NEVER }, 0, true)).toBe(false);
    // Where it does not depend on it, the decider's events are the same either way.
    for (const topicPolicies of [{ 10: 3 as const }, { 10: 1 as const }]) {
      expect(eventsOf({ topicHasVisibleMessages: false, topicPolicies })).toEqual(eventsOf({ topicHasVisibleMessages: true, topicPolicies }));
    }
  });

  it('follows the topic for mentioned humans unless they muted it', () => {
    const events = eventsOf({ content: '@**Cordelia Lear** @**Polonius**', mentionables: [cordelia, polonius], subscriberIds: [10, 11, 12], topicPolicies: { 12: 1 } });
    expect(events.slice(1)).toEqual([userTopicPolicyChanged({ userId: 11, oldPolicy: 0, newPolicy: 3 })]);
  });

  it("follows the topic for a mentioned group's human members (humanGroupMemberIds), as for a personal mention", () => {
    const group = { id: 1000001, name: 'support', memberIds: [11, 12, 13], canMention: true };
    const given = { content: 'hi @*support*', mentionableGroups: [group], subscriberIds: [10, 11, 12, 13], topicPolicies: { 12: 1 as const } };
    // 13 is not listed as human (a bot, say): it does not follow; 12 muted the topic.
    expect(eventsOf({ ...given, humanGroupMemberIds: [11, 12] }).slice(1)).toEqual([userTopicPolicyChanged({ userId: 11, oldPolicy: 0, newPolicy: 3 })]);
    expect(eventsOf(given).slice(1)).toEqual([]);
  });
});

describe('messageDecider: SendMessage of a widget (do_widget_post_save_actions)', () => {
  const withWidgetId = (content: string, widgetSubmessageId?: number) => {
    const command = sendMessage({ content });
    return { ...command, data: { ...command.data, ...(widgetSubmessageId === undefined ? {} : { widgetSubmessageId }) } };
  };

  it('records a /poll message with its widget submessage by the sender, under the id taken for it', () =>
    given([]).when(withWidgetId('/poll Lunch?\nYes\nNo', 7)).thenMatches([
      { type: 'MessageSent', data: { widget: { submessageId: 7, senderId: 10, msgType: 'widget', content: '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Yes", "No"]}}' } } },
    ]));

  it('makes no widget of other content, nor without an id', () => {
    expect(given([]).when(withWidgetId('hello', 7)).events()[0].data).not.toHaveProperty('widget');
    expect(given([]).when(withWidgetId('/poll Lunch?')).events()[0].data).not.toHaveProperty('widget');
  });
});
