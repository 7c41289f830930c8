import type { Decider } from '../shared/decider';
import { unixSeconds } from '../shared/unix-seconds';
import { decideDelete, decideEdit, type DeleteMessage, type EditMessage } from './edit-message.decider';
import { MessageAlreadySentError } from './messages.errors';
import type { MessageDeleted, MessageEditEvent } from './messages.events';
import { messageReactionsStream, messageStream, messageSubmessagesStream } from './messages.streams';
import { decideSend, type SendMessage } from './send-message.rules';

/**
 * The retention job's deletion of a message that outlived its retention period (Zulip's
 * archive_messages): no actor and no permission check. `cutoff` (seconds since the epoch) is the
 * send time before which the message is expired; `location` is where the message is now, as the
 * message index has it (null for a direct message).
 */
export type ExpireMessage = {
  type: 'ExpireMessage';
  data: { messageId: number; now: string; cutoff: number; location: { streamId: number; topic: string } | null };
};

/** Every command of `message-<id>`: its send, then its edits, moves and deletion. */
export type MessageCommand = SendMessage | EditMessage | DeleteMessage | ExpireMessage;

/**
 * ExpireMessage: the message's `MessageDeleted`, marked as the retention job's, or nothing when it
 * is already gone or was sent at or after the cutoff (the job found it by id, and ids only roughly
 * follow send times: an imported message may be newer than its id says).
 */
export function decideExpire(state: MessageState, { messageId, now, cutoff, location }: ExpireMessage['data']): MessageEditEvent[] {
  if (!state.sent || state.deleted || state.sentAt >= cutoff) return [];
  return [
    {
      type: 'MessageDeleted',
      data: {
        realmId: state.realmId, messageId, senderId: state.senderId, messageType: state.type,
        streamId: location?.streamId ?? null, topic: location?.topic ?? null, actorId: null, at: now, reason: 'retention',
      },
    },
  ];
}

/**
 * The state of one message's stream, `message-<id>`, as its one decider folds it: whether it was
 * sent (an id is sent once) and deleted, and what edits and deletion are checked against.
 */
export type MessageState = {
  sent: boolean;
  deleted: boolean;
  realmId: number;
  senderId: number;
  /** Seconds since the epoch. */
  sentAt: number;
  type: 'stream' | 'private';
  streamId: number | null;
  topic: string | null;
  content: string;
  renderedContent: string;
  /** The current content's mentions. */
  mentions: { userIds: number[]; streamWildcard: boolean; topicWildcardUserIds: number[] };
  /** The users whose rows the current content flags `has_alert_word`. */
  alertWordUserIds: number[];
};

const initialState = (): MessageState => ({
  sent: false, deleted: false, realmId: 0, senderId: 0, sentAt: 0, type: 'stream', streamId: null, topic: null, content: '', renderedContent: '',
  mentions: { userIds: [], streamWildcard: false, topicWildcardUserIds: [] },
  alertWordUserIds: [],
});

/**
 * The one decider of `message-<id>` (see messages.streams.ts): send (send-message.rules.ts),
 * edit, move and delete (edit-message.decider.ts) decide on this one fold of the stream, so the
 * stream's state has one shape and one owner. (Personal flags live on `message_flags-<userId>`
 * and topic policies set by hand on `user_topics-<userId>`: neither folds a message's stream.)
 */
export const messageDecider: Decider<MessageCommand, MessageEditEvent, MessageState> = {
  snapshot: {
    name: 'message',
    version: 1,
    // A deleted message's text is in the snapshots of its stream, its reactions' and its
    // submessages' (a poll's options): the runner deletes them once the deletion is appended.
    forgets: (event) => {
      if (event.type !== 'MessageDeleted') return [];
      const { messageId } = event.data as MessageDeleted['data'];
      return [messageStream(messageId), messageReactionsStream(messageId), messageSubmessagesStream(messageId)];
    },
  },
  initialState,
  decide: (command, state) => {
    switch (command.type) {
      case 'SendMessage':
        if (state.sent) throw new MessageAlreadySentError(command.data.messageId);
        return decideSend(command.data);
      case 'EditMessage':
        return decideEdit(state, command.data);
      case 'DeleteMessage':
        return decideDelete(state, command.data);
      case 'ExpireMessage':
        return decideExpire(state, command.data);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'MessageSent': {
        const d = event.data;
        const stream = d.recipient.type === 'stream' ? d.recipient : null;
        return {
          ...state, sent: true, realmId: d.realmId, senderId: d.senderId, sentAt: unixSeconds(d.at), type: stream ? 'stream' : 'private',
          streamId: stream?.streamId ?? null, topic: stream?.topic ?? null, content: d.content, renderedContent: d.renderedContent,
          mentions: { userIds: d.mentionedUserIds, streamWildcard: d.streamWildcardMentioned, topicWildcardUserIds: d.topicWildcardMentionedUserIds },
          alertWordUserIds: d.alertWordUserIds ?? [],
        };
      }
      case 'MessageContentEdited': {
        const d = event.data;
        return {
          ...state, content: d.content, renderedContent: d.renderedContent,
          mentions: { userIds: d.mentionedUserIds, streamWildcard: d.streamWildcardMentioned, topicWildcardUserIds: d.topicWildcardMentionedUserIds },
          alertWordUserIds: d.alertWordUserIds ?? [],
        };
      }
      case 'MessagesMoved':
        return { ...state, streamId: event.data.streamId, topic: event.data.topic };
      case 'MessageDeleted':
        // Erased: nothing of its text stays in the fold, so no later snapshot holds it.
        return {
          ...state, deleted: true, topic: null, content: '', renderedContent: '',
          mentions: { userIds: [], streamWildcard: false, topicWildcardUserIds: [] }, alertWordUserIds: [],
        };
      default:
        return state;
    }
  },
};
