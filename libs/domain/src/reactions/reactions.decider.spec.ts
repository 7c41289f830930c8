import { deciderSpec } from '@app/testing';
import {
  EmojiDoesNotExistError,
  EmojiNameOrCodeRequiredError,
  InvalidEmojiError,
  ReactionAlreadyExistsError,
  ReactionDoesNotExistError,
  reactionsDecider,
  type CustomEmojiFact,
  type ReactionAdded,
  type ReactionEmojiFacts,
  type ReactionsCommand,
  type TopicParticipation,
} from '@app/domain';

const given = deciderSpec(reactionsDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const partyParrot: CustomEmojiFact = { id: '7', name: 'party_parrot', deactivated: false };
const noEmoji: ReactionEmojiFacts = { customByName: null, customById: null };

const added = (userId: number, emojiName: string, emojiCode: string, reactionType = 'unicode_emoji'): ReactionAdded =>
  ({ type: 'ReactionAdded', data: { realmId: 1, messageId: 42, userId, emojiName, emojiCode, reactionType, historical: false, at: NOW } }) as ReactionAdded;

const add = (
  userId: number,
  emojiName: string,
  options: { code?: string; type?: string; hasRow?: boolean; emoji?: Partial<ReactionEmojiFacts>; participation?: TopicParticipation } = {},
): ReactionsCommand => ({
  type: 'AddReaction',
  data: {
    realmId: 1, messageId: 42, userId, now: NOW, emoji: { ...noEmoji, ...options.emoji },
    emojiName, emojiCode: options.code ?? null, reactionType: options.type ?? null, hasRow: options.hasRow ?? true, participation: options.participation ?? null,
  },
});
const remove = (userId: number, options: { name?: string; code?: string; type?: string; emoji?: Partial<ReactionEmojiFacts> } = {}): ReactionsCommand => ({
  type: 'RemoveReaction',
  data: {
    realmId: 1, messageId: 42, userId, now: NOW, emoji: { ...noEmoji, ...options.emoji },
    emojiName: options.name ?? null, emojiCode: options.code ?? null, reactionType: options.type ?? 'unicode_emoji',
  },
});

describe('reactionsDecider', () => {
  it('adds a Unicode emoji named alone, looking up its code (get_emoji_data)', () =>
    given([]).when(add(10, 'octopus')).then([
      { type: 'ReactionAdded', data: { realmId: 1, messageId: 42, userId: 10, emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji', historical: false, at: NOW } },
    ]));

  it('marks the reaction historical when the user had no row for the message', () =>
    given([]).when(add(10, 'octopus', { hasRow: false })).thenMatches([{ data: { historical: true } }]));

  it('checks a named code and type in their namespace (check_emoji_request)', () => {
    given([]).when(add(10, 'octopus', { code: '1f419', type: 'unicode_emoji' })).thenMatches([{ data: { emojiCode: '1f419' } }]);
    given([]).when(add(10, 'octopus', { code: 'ffff', type: 'unicode_emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji code.');
    given([]).when(add(10, 'car', { code: '1f419', type: 'unicode_emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji name.');
    given([]).when(add(10, 'octopus', { code: '1f419', type: 'emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji type.');
    given([]).when(add(10, 'zulip', { code: 'zulip', type: 'svc_extra_emoji' })).thenMatches([{ data: { emojiCode: 'zulip', reactionType: 'svc_extra_emoji' } }]);
    given([]).when(add(10, 'zulip')).thenMatches([{ data: { emojiCode: 'zulip', reactionType: 'svc_extra_emoji' } }]);
  });

  it("refuses a name that is no emoji: \"Emoji 'x' does not exist\"", () =>
    given([]).when(add(10, 'no_such_emoji')).thenThrows(EmojiDoesNotExistError, "Emoji 'no_such_emoji' does not exist"));

  it("checks custom emoji against the organization's", () => {
    given([]).when(add(10, 'party_parrot', { emoji: { customByName: partyParrot } })).thenMatches([{ data: { emojiCode: '7', reactionType: 'realm_emoji' } }]);
    given([]).when(add(10, 'party_parrot', { code: '7', type: 'realm_emoji', emoji: { customById: partyParrot } })).thenMatches([{ data: { emojiCode: '7' } }]);
    given([]).when(add(10, 'party_parrot', { code: '7', type: 'realm_emoji' })).thenThrows(InvalidEmojiError, 'Invalid custom emoji.');
    given([]).when(add(10, 'parrot', { code: '7', type: 'realm_emoji', emoji: { customById: partyParrot } })).thenThrows(InvalidEmojiError, 'Invalid custom emoji name.');
    given([])
      .when(add(10, 'party_parrot', { code: '7', type: 'realm_emoji', emoji: { customById: { ...partyParrot, deactivated: true } } }))
      .thenThrows(InvalidEmojiError, 'This custom emoji has been deactivated.');
  });

  it('refuses the same user reacting twice with one emoji: "Reaction already exists."', () => {
    given([added(10, 'octopus', '1f419')]).when(add(10, 'octopus')).thenThrows(ReactionAlreadyExistsError, 'Reaction already exists.');
    given([added(10, 'octopus', '1f419')]).when(add(11, 'octopus')).thenMatches([{ data: { userId: 11 } }]);
  });

  it("counts a second user's reaction with the same code as a vote, under the first name, unchecked", () => {
    // The first reaction used a name this code no longer has (or a deactivated custom emoji).
    given([added(10, 'old_name', '1f419')]).when(add(11, 'octopus', { code: '1f419', type: 'unicode_emoji' })).thenMatches([{ data: { emojiName: 'old_name' } }]);
    given([added(10, 'party_parrot', '7', 'realm_emoji')])
      .when(add(11, 'party_parrot', { code: '7', type: 'realm_emoji', emoji: { customById: { ...partyParrot, deactivated: true } } }))
      .thenMatches([{ data: { emojiName: 'party_parrot', emojiCode: '7' } }]);
  });

  it('removes the user\'s reaction by code, by name, and only theirs', () => {
    const history = [added(10, 'old_name', '1f419'), added(11, 'old_name', '1f419')];
    given(history).when(remove(10, { code: '1f419' })).then([
      { type: 'ReactionRemoved', data: { realmId: 1, messageId: 42, userId: 10, emojiName: 'old_name', emojiCode: '1f419', reactionType: 'unicode_emoji', at: NOW } },
    ]);
    given(history).when(remove(11, { name: 'octopus' })).thenMatches([{ data: { userId: 11, emojiCode: '1f419' } }]);
    given(history).when(remove(12, { code: '1f419' })).thenThrows(ReactionDoesNotExistError, "Reaction doesn't exist.");
    given(history).when(remove(10, { code: '1f419', type: 'realm_emoji' })).thenThrows(ReactionDoesNotExistError);
  });

  it('forgets a removed reaction, so it can be added again', () => {
    const removed = { type: 'ReactionRemoved', data: { realmId: 1, messageId: 42, userId: 10, emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji', at: NOW } } as never;
    given([added(10, 'octopus', '1f419'), removed]).when(remove(10, { code: '1f419' })).thenThrows(ReactionDoesNotExistError);
    given([added(10, 'octopus', '1f419'), removed]).when(add(10, 'octopus')).thenMatches([{ type: 'ReactionAdded' }]);
  });

  it('wants a name or a code to remove', () => {
    given([]).when(remove(10)).thenThrows(EmojiNameOrCodeRequiredError, 'At least one of the following arguments must be present: emoji_name, emoji_code');
    given([]).when(remove(10, { name: 'no_such_emoji' })).thenThrows(EmojiDoesNotExistError);
  });

  it('removes a deactivated custom emoji reaction without checking it', () =>
    given([added(10, 'party_parrot', '7', 'realm_emoji')]).when(remove(10, { code: '7', type: 'realm_emoji' })).thenMatches([{ type: 'ReactionRemoved' }]));

  describe('automatic topic follow / unmute on participation (do_add_reaction)', () => {
    const following: TopicParticipation = {
      streamId: 7, topic: 'Lunch', currentPolicy: 0, subscribed: true, channelMuted: false,
      settings: { followTopics: 1, unmuteTopicsInMutedChannels: 4, followTopicsWhereMentioned: true },
    };

    it('given a user who follows topics on participation, when they react, then the follow and the reaction are recorded together (the follow first, as Zulip sets it before notifying)', () =>
      given([]).when(add(10, 'octopus', { participation: following })).then([
        { type: 'UserTopicVisibilityPolicyChanged', data: { realmId: 1, userId: 10, streamId: 7, topic: 'Lunch', oldPolicy: 0, newPolicy: 3, messageId: 42, at: NOW } },
        { type: 'ReactionAdded', data: { realmId: 1, messageId: 42, userId: 10, emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji', historical: false, at: NOW } },
      ]));

    it('changes nothing for a topic already followed, and nothing for a refused reaction', () => {
      given([]).when(add(10, 'octopus', { participation: { ...following, currentPolicy: 3 } })).thenMatches([{ type: 'ReactionAdded' }]);
      given([added(10, 'octopus', '1f419')]).when(add(10, 'octopus', { participation: following })).thenThrows(ReactionAlreadyExistsError);
    });

    it('a reaction decided on the events folds like any other (the policy change is not reaction state)', () => {
      const policyChanged = { type: 'UserTopicVisibilityPolicyChanged', data: { realmId: 1, userId: 10, streamId: 7, topic: 'Lunch', oldPolicy: 0, newPolicy: 3, messageId: 42, at: NOW } } as never;
      given([added(10, 'octopus', '1f419'), policyChanged]).when(add(10, 'octopus')).thenThrows(ReactionAlreadyExistsError);
      given([added(10, 'octopus', '1f419'), policyChanged]).when(remove(10, { code: '1f419' })).thenMatches([{ type: 'ReactionRemoved' }]);
    });
  });
});
