import type { Decider } from '../shared/decider';
import { InvalidSubmessageJsonError, SubmessageSenderError } from './submessages.errors';
import type { StoredSubmessage, SubmessageEvent } from './submessages.events';
import { validatePollData, validateTodoData, widgetTypeOf } from './widgets.rules';
import type { UserTopicVisibilityPolicyChanged } from '../messages/messages.events';
import { participationPolicyChanges, type TopicParticipation } from '../messages/visibility.rules';

/**
 * POST /submessage (process_submessage), after access_message on the read models. `message`: the
 * facts of the message the handler read: its sender, and the widget submessage it was sent with
 * (MessageSent `widget`; null for a message that is no widget). `submessageId` is taken from the
 * `submessage` sequence by the handler. `participation`: what the sender's automatic topic policy
 * is decided on (any submessage is participation, do_add_submessage: a poll vote or option, a
 * to-do task or strike; null where nothing can change, see TopicParticipation).
 */
export type AddSubmessage = {
  type: 'AddSubmessage';
  data: {
    realmId: number;
    messageId: number;
    submessageId: number;
    senderId: number;
    msgType: string;
    content: string;
    now: string;
    message: { senderId: number; widget: StoredSubmessage | null };
    participation: TopicParticipation | null;
  };
};

export type SubmessagesCommand = AddSubmessage;

/** What the stream's submessages decide later ones by: who added any, and the first `widget` one's content. */
export type SubmessagesState = { senderIds: number[]; firstWidgetContent: string | null };

/**
 * Submessages added to one message (stream `message_submessages-<messageId>`, see
 * submessages.streams.ts), each with the automatic policy change it may make for its sender's topic.
 */
export const submessagesDecider: Decider<SubmessagesCommand, SubmessageEvent | UserTopicVisibilityPolicyChanged, SubmessagesState> = {
  snapshot: { name: 'submessages', version: 1 },
  initialState: () => ({ senderIds: [], firstWidgetContent: null }),

  decide: (command, state) => {
    const { realmId, messageId, submessageId, senderId, msgType, content, now, message, participation } = command.data;
    // verify_submessage_sender: someone other than the message's sender may only follow a
    // submessage of the sender's (a widget the sender made).
    if (senderId !== message.senderId && message.widget?.senderId !== message.senderId && !state.senderIds.includes(message.senderId)) {
      throw new SubmessageSenderError();
    }
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch {
      throw new InvalidSubmessageJsonError();
    }
    // get_widget_type: the first `widget` submessage (the message's own comes first).
    const widgetContent = message.widget?.msgType === 'widget' ? message.widget.content : state.firstWidgetContent;
    const widgetType = widgetContent === null ? undefined : widgetTypeOf(widgetContent);
    const isWidgetAuthor = senderId === message.senderId;
    if (widgetType === 'poll') validatePollData(data, isWidgetAuthor);
    if (widgetType === 'todo') validateTodoData(data, isWidgetAuthor);
    // The policy first, as do_add_submessage sets it before sending the `submessage` event.
    return [
      ...participationPolicyChanges(participation, { realmId, userId: senderId, messageId, at: now }),
      { type: 'SubmessageAdded', data: { realmId, messageId, submessageId, senderId, msgType, content, at: now } },
    ];
  },

  evolve: (state, event) => {
    if (event.type !== 'SubmessageAdded') return state;
    const { senderId, msgType, content } = event.data;
    return {
      senderIds: state.senderIds.includes(senderId) ? state.senderIds : [...state.senderIds, senderId],
      firstWidgetContent: state.firstWidgetContent ?? (msgType === 'widget' ? content : null),
    };
  },
};
