import type { Decider } from '../shared/decider';
import {
  DeliveryTimeNotInFutureError,
  SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES,
  ScheduledMessageAlreadySentError,
  ScheduledMessageDoesNotExistError,
} from './scheduled-messages.errors';
import type { ScheduledMessageBody, ScheduledMessageDelivered, ScheduledMessageEvent } from './scheduled-messages.events';
import { scheduledMessageStream } from './scheduled-messages.streams';

type Meta = { scheduledMessageId: number; now: string };

/** POST /scheduled_messages, once the handler has checked the message as a send would (check_message). */
export type ScheduleMessage = {
  type: 'ScheduleMessage';
  data: Meta & ScheduledMessageBody & { realmId: number; senderId: number; readBySender: boolean };
};
/** PATCH /scheduled_messages/{id}: `body` is the whole new body (the handler merged and re-checked it); `deliverAtGiven` when the request named a time. */
export type EditScheduledMessage = { type: 'EditScheduledMessage'; data: Meta & { senderId: number; body: ScheduledMessageBody; deliverAtGiven: boolean } };
/** DELETE /scheduled_messages/{id}. */
export type DeleteScheduledMessage = { type: 'DeleteScheduledMessage'; data: Meta & { senderId: number } };
/** The delivery takes the scheduled message, with the id its message will have (allocated by the handler). */
export type ClaimDelivery = { type: 'ClaimDelivery'; data: Meta & { messageId: number } };
/** The message `messageId` was appended (or was found already appended): record the delivery. */
export type ConfirmDelivery = { type: 'ConfirmDelivery'; data: Meta & { messageId: number } };
/** The delivery could not send the message (a send check, a deactivation, too late, an internal error). */
export type FailDelivery = { type: 'FailDelivery'; data: Meta & { failureMessage: string; notifySender: boolean } };

export type ScheduledMessageCommand = ScheduleMessage | EditScheduledMessage | DeleteScheduledMessage | ClaimDelivery | ConfirmDelivery | FailDelivery;

export type ScheduledMessageState = {
  status: 'none' | 'scheduled' | 'deleted';
  realmId: number;
  senderId: number;
  body: ScheduledMessageBody | null;
  failed: boolean;
  /** Set once, by the one accepted claim: the only message id this scheduled message may ever send. */
  claimedMessageId: number | null;
  deliveredMessageId: number | null;
};

/** A delivered body without its text: the content, the rendering and a channel message's topic. */
const withoutText = (body: ScheduledMessageBody): ScheduledMessageBody => ({
  ...body,
  content: '',
  renderedContent: '',
  recipient: body.recipient.type === 'stream' ? { ...body.recipient, topic: '' } : body.recipient,
});

const nowMs = (iso: string) => Date.parse(iso);
const isDue = (deliverAt: number, now: string) => deliverAt * 1000 <= nowMs(now);

/** DeliveryTimeNotInFutureError: Zulip refuses `deliver_at <= now`. */
export function checkDeliveryTimeInFuture(deliverAt: number, now: string): void {
  if (isDue(deliverAt, now)) throw new DeliveryTimeNotInFutureError();
}

/** send_scheduled_message: later than the cutoff after its time, a scheduled message is not sent. */
export const isTooLateToDeliver = (deliverAt: number, now: string): boolean =>
  nowMs(now) > (deliverAt + SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES * 60) * 1000;

/** access_scheduled_message: the sender's own, not deleted; anything else is "does not exist" (404). */
const access = (state: ScheduledMessageState, senderId: number): ScheduledMessageBody => {
  if (state.status !== 'scheduled' || state.senderId !== senderId || state.body === null) throw new ScheduledMessageDoesNotExistError();
  return state.body;
};

const sameBody = (a: ScheduledMessageBody, b: ScheduledMessageBody) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One scheduled message (stream `scheduled_message-<id>`).
 *
 * Exactly-once delivery spans two streams: this one and the sent message's `message-<id>`. The
 * delivery (DeliverScheduledMessageHandler) runs three steps, each an append with optimistic
 * concurrency, and any step may be retried by any worker after a crash:
 *   1. ClaimDelivery appends `ScheduledMessageDeliveryClaimed {messageId}`: only the first claim is
 *      accepted (a second is refused as a no-op), so the message id is fixed forever;
 *   2. the message is appended to `message-<messageId>` with the message decider, which refuses a
 *      second `MessageSent` on that stream (the append expects `no_stream`);
 *   3. ConfirmDelivery appends `ScheduledMessageDelivered`.
 * A crash after 1 leaves a claimed, undelivered message: recovery (the next job run, or the boot
 * re-arm, which lists claimed-but-undelivered ones) repeats 2 — harmless if it had happened — and 3.
 * Nothing can lose the message (the claim stays until 3) or duplicate it (one id, one stream).
 */
export const scheduledMessageDecider: Decider<ScheduledMessageCommand, ScheduledMessageEvent, ScheduledMessageState> = {
  snapshot: {
    name: 'scheduled-message',
    version: 1,
    // Once delivered, the text is the message's, and goes when it is deleted: no snapshot of this
    // stream keeps a copy (the fold below forgets it too).
    forgets: (event) => (event.type === 'ScheduledMessageDelivered' ? [scheduledMessageStream((event.data as ScheduledMessageDelivered['data']).scheduledMessageId)] : []),
  },
  initialState: () => ({ status: 'none', realmId: 0, senderId: 0, body: null, failed: false, claimedMessageId: null, deliveredMessageId: null }),

  decide: (command, state) => {
    const { scheduledMessageId, now: at } = command.data;
    const header = { scheduledMessageId, realmId: state.realmId, senderId: state.senderId, at };
    switch (command.type) {
      case 'ScheduleMessage': {
        const { recipient, content, renderedContent, deliverAt, client, realmId, senderId, readBySender } = command.data;
        if (state.status !== 'none') throw new Error(`scheduled message ${scheduledMessageId} already exists`);
        checkDeliveryTimeInFuture(deliverAt, at);
        return [
          {
            type: 'ScheduledMessageCreated',
            data: { scheduledMessageId, realmId, senderId, recipient, content, renderedContent, deliverAt, client, readBySender, at },
          },
        ];
      }
      case 'EditScheduledMessage': {
        const { body, deliverAtGiven, senderId } = command.data;
        if (deliverAtGiven) checkDeliveryTimeInFuture(body.deliverAt, at);
        const old = access(state, senderId);
        // Zulip refuses once delivered; a claimed message is being sent, which is the same here.
        if (state.claimedMessageId !== null) throw new ScheduledMessageAlreadySentError();
        // A failed message needs a new time to be tried again.
        if (state.failed && !deliverAtGiven) throw new DeliveryTimeNotInFutureError();
        if (!state.failed && sameBody(old, body)) return [];
        return [{ type: 'ScheduledMessageEdited', data: { ...header, old, new: body, wasFailed: state.failed } }];
      }
      case 'DeleteScheduledMessage':
        access(state, command.data.senderId);
        return [{ type: 'ScheduledMessageDeleted', data: header }];
      case 'ClaimDelivery': {
        // Duplicate jobs, stale jobs (the message was moved or deleted) and racing workers all
        // end here as no-ops: only a due, unclaimed, unfailed, undeleted message is claimed.
        if (state.status !== 'scheduled' || state.body === null) return [];
        if (state.claimedMessageId !== null || state.failed || !isDue(state.body.deliverAt, at)) return [];
        return [{ type: 'ScheduledMessageDeliveryClaimed', data: { ...header, messageId: command.data.messageId, deliverAt: state.body.deliverAt } }];
      }
      case 'ConfirmDelivery':
        // Only the claimed id can be delivered, once. (A claim that a racing worker marked failed
        // while this one appended the message is still recorded as delivered: the message exists.)
        if (state.claimedMessageId !== command.data.messageId || state.deliveredMessageId !== null) return [];
        return [{ type: 'ScheduledMessageDelivered', data: { ...header, messageId: command.data.messageId } }];
      case 'FailDelivery': {
        if (state.status !== 'scheduled' || state.body === null || state.failed || state.deliveredMessageId !== null) return [];
        if (state.claimedMessageId === null && !isDue(state.body.deliverAt, at)) return [];
        const { failureMessage, notifySender } = command.data;
        return [{ type: 'ScheduledMessageDeliveryFailed', data: { ...header, failureMessage, notifySender, deliverAt: state.body.deliverAt } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'ScheduledMessageCreated': {
        const { realmId, senderId, recipient, content, renderedContent, deliverAt, client } = event.data;
        return { ...state, status: 'scheduled', realmId, senderId, body: { recipient, content, renderedContent, deliverAt, client } };
      }
      case 'ScheduledMessageEdited':
        return { ...state, body: event.data.new, failed: false };
      case 'ScheduledMessageDeleted':
        return { ...state, status: 'deleted' };
      case 'ScheduledMessageDeliveryClaimed':
        return { ...state, claimedMessageId: event.data.messageId };
      case 'ScheduledMessageDelivered':
        // The text now lives in the message (erased with it); only the time is still read.
        return { ...state, deliveredMessageId: event.data.messageId, failed: false, body: state.body && withoutText(state.body) };
      case 'ScheduledMessageDeliveryFailed':
        return { ...state, failed: true };
      default:
        return state;
    }
  },
};
