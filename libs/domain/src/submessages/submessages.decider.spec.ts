import { deciderSpec } from '@app/testing';
import {
  type AddSubmessage,
  InvalidSubmessageJsonError,
  InvalidWidgetDataError,
  type StoredSubmessage,
  type SubmessageAdded,
  submessagesDecider,
  SubmessageSenderError,
  type TopicParticipation,
} from '@app/domain';

const given = deciderSpec(submessagesDecider);
const NOW = '2026-03-04T05:06:07.000Z';
const HAMLET = 10;
const CORDELIA = 11;
const poll: StoredSubmessage = { submessageId: 1, senderId: HAMLET, msgType: 'widget', content: '{"widget_type": "poll", "extra_data": {"question": "Q", "options": []}}' };
const todo: StoredSubmessage = { ...poll, content: '{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}' };

const add = (
  senderId: number,
  content: unknown,
  options: { widget?: StoredSubmessage | null; msgType?: string; id?: number; participation?: TopicParticipation } = {},
): AddSubmessage => ({
  type: 'AddSubmessage',
  data: {
    realmId: 1, messageId: 42, submessageId: options.id ?? 5, senderId, msgType: options.msgType ?? 'widget',
    content: typeof content === 'string' ? content : JSON.stringify(content), now: NOW,
    message: { senderId: HAMLET, widget: options.widget === undefined ? poll : options.widget },
    participation: options.participation ?? null,
  },
});
const added = (senderId: number, content: string, msgType = 'widget', submessageId = 3): SubmessageAdded => ({
  type: 'SubmessageAdded',
  data: { realmId: 1, messageId: 42, submessageId, senderId, msgType, content, at: NOW },
});
const vote = { type: 'vote', key: 'canned,0', vote: 1 };

describe('submessagesDecider', () => {
  it('adds a vote on a poll by any reader', () =>
    given([]).when(add(CORDELIA, vote)).then([
      { type: 'SubmessageAdded', data: { realmId: 1, messageId: 42, submessageId: 5, senderId: CORDELIA, msgType: 'widget', content: JSON.stringify(vote), at: NOW } },
    ]));

  it('refuses a first submessage by someone other than the message sender (verify_submessage_sender)', () => {
    given([]).when(add(CORDELIA, vote, { widget: null })).thenThrows(SubmessageSenderError, 'You cannot attach a submessage to this message.');
    // The sender may; after them, anyone.
    given([]).when(add(HAMLET, { anything: 1 }, { widget: null, msgType: 'other' })).thenMatches([{ type: 'SubmessageAdded' }]);
    given([added(HAMLET, '{}', 'other')]).when(add(CORDELIA, vote, { widget: null })).thenMatches([{ data: { senderId: CORDELIA } }]);
    // Another reader's submessage does not open it.
    given([added(CORDELIA, '{}', 'other')]).when(add(12, vote, { widget: null })).thenThrows(SubmessageSenderError);
  });

  it('refuses content that is not JSON, after the sender check', () => {
    given([]).when(add(CORDELIA, '{nope')).thenThrows(InvalidSubmessageJsonError, 'Invalid json for submessage');
    given([]).when(add(CORDELIA, '{nope', { widget: null })).thenThrows(SubmessageSenderError);
  });

  it("validates by the widget type of the message's first widget submessage", () => {
    given([]).when(add(CORDELIA, { type: 'question', question: 'Mine' })).thenThrows(InvalidWidgetDataError, "You can't edit a question unless you are the author.");
    given([]).when(add(HAMLET, { type: 'question', question: 'Mine' })).thenMatches([{ type: 'SubmessageAdded' }]);
    given([]).when(add(CORDELIA, vote, { widget: todo })).thenThrows(InvalidWidgetDataError, 'Unknown type for todo data: vote');
    // Without a widget from the send, the first widget submessage on the stream decides.
    given([added(HAMLET, todo.content)]).when(add(CORDELIA, vote, { widget: null })).thenThrows(InvalidWidgetDataError, 'Unknown type for todo data: vote');
    // A message that is no widget takes any JSON.
    given([added(HAMLET, '{}')]).when(add(CORDELIA, [1, 2], { widget: null })).thenMatches([{ type: 'SubmessageAdded' }]);
  });

  describe('automatic topic follow / unmute on participation (do_add_submessage)', () => {
    const unmuting: TopicParticipation = {
      streamId: 7, topic: 'Lunch', currentPolicy: 0, subscribed: true, channelMuted: true,
      settings: { followTopics: 4, unmuteTopicsInMutedChannels: 1, followTopicsWhereMentioned: true },
    };

    it('given a muted channel and unmute on participation, when the user votes, then the unmute and the vote are recorded together', () =>
      given([]).when(add(CORDELIA, vote, { participation: unmuting })).then([
        { type: 'UserTopicVisibilityPolicyChanged', data: { realmId: 1, userId: CORDELIA, streamId: 7, topic: 'Lunch', oldPolicy: 0, newPolicy: 2, messageId: 42, at: NOW } },
        { type: 'SubmessageAdded', data: { realmId: 1, messageId: 42, submessageId: 5, senderId: CORDELIA, msgType: 'widget', content: JSON.stringify(vote), at: NOW } },
      ]));

    it('counts any submessage (a new option too), and none that is refused', () => {
      given([]).when(add(CORDELIA, { type: 'new_option', idx: 1, option: 'maybe' }, { participation: unmuting })).thenMatches([{ data: { newPolicy: 2 } }, { type: 'SubmessageAdded' }]);
      given([]).when(add(CORDELIA, '{nope', { participation: unmuting })).thenThrows(InvalidSubmessageJsonError);
    });

    it('the policy change is not submessage state: later submessages decide as before', () => {
      const changed = { type: 'UserTopicVisibilityPolicyChanged', data: { realmId: 1, userId: CORDELIA, streamId: 7, topic: 'Lunch', oldPolicy: 0, newPolicy: 2, messageId: 42, at: NOW } } as never;
      given([changed]).when(add(CORDELIA, vote, { widget: null })).thenThrows(SubmessageSenderError);
    });
  });
});
