import type { MessageDeleted, ScheduledMessageEvent } from '@app/domain';
import { type ScheduledMessageDocument, toApiScheduledMessage } from '@app/application';
import { recorded, replay } from '@app/testing';
import { scheduledMessagesProjection } from './scheduled-messages.projection';

const header = { scheduledMessageId: 7, realmId: 1, senderId: 10, at: '2026-01-01T00:00:00.000Z' };
const body = { recipient: { type: 'stream' as const, streamId: 3, topic: 'Test topic' }, content: 'Hi', renderedContent: '<p>Hi</p>', deliverAt: 1767225900, client: 'website' };
const created: ScheduledMessageEvent = { type: 'ScheduledMessageCreated', data: { ...header, ...body, readBySender: true } };
const after = (events: (ScheduledMessageEvent | MessageDeleted)[]) => replay(scheduledMessagesProjection, recorded(events, 'scheduled_message-7')).get('7') as ScheduledMessageDocument | undefined;

describe('scheduledMessagesProjection', () => {
  it('stores the scheduled message in the shape of ScheduledMessage.to_dict, with its sender and state', () => {
    const doc = after([created])!;
    expect(toApiScheduledMessage(doc)).toEqual({
      scheduled_message_id: 7, type: 'stream', to: 3, topic: 'Test topic', content: 'Hi', rendered_content: '<p>Hi</p>', scheduled_delivery_timestamp: 1767225900, failed: false,
    });
    expect(doc).toMatchObject({ sender_id: 10, realm_id: 1, delivered: false, claimed_message_id: null, read_by_sender: true });
  });

  it('applies edits (to a direct message: no topic) and clears a failure', () => {
    const failed: ScheduledMessageEvent = { type: 'ScheduledMessageDeliveryFailed', data: { ...header, failureMessage: 'Account is deactivated', notifySender: false, deliverAt: body.deliverAt } };
    expect(after([created, failed])).toMatchObject({ failed: true, failure_message: 'Account is deactivated' });
    const edited: ScheduledMessageEvent = {
      type: 'ScheduledMessageEdited',
      data: { ...header, old: body, new: { ...body, recipient: { type: 'private', userIds: [11] }, deliverAt: body.deliverAt + 60 }, wasFailed: true },
    };
    const doc = after([created, failed, edited])!;
    expect(toApiScheduledMessage(doc)).toEqual({
      scheduled_message_id: 7, type: 'private', to: [11], content: 'Hi', rendered_content: '<p>Hi</p>', scheduled_delivery_timestamp: body.deliverAt + 60, failed: false,
    });
  });

  it('records the claim and the delivery; a deleted message has no document', () => {
    const claimed: ScheduledMessageEvent = { type: 'ScheduledMessageDeliveryClaimed', data: { ...header, messageId: 100, deliverAt: body.deliverAt } };
    const delivered: ScheduledMessageEvent = { type: 'ScheduledMessageDelivered', data: { ...header, messageId: 100 } };
    expect(after([created, claimed])).toMatchObject({ claimed_message_id: 100, delivered: false });
    expect(after([created, claimed, delivered])).toMatchObject({ delivered: true, delivered_message_id: 100 });
    expect(after([created, { type: 'ScheduledMessageDeleted', data: header }])).toBeUndefined();
  });

  it('goes with the message it was delivered as (Zulip: delivered_message on_delete=CASCADE), and with nothing else', () => {
    const claimed: ScheduledMessageEvent = { type: 'ScheduledMessageDeliveryClaimed', data: { ...header, messageId: 100, deliverAt: body.deliverAt } };
    const delivered: ScheduledMessageEvent = { type: 'ScheduledMessageDelivered', data: { ...header, messageId: 100 } };
    const deleted = (messageId: number): MessageDeleted => ({
      type: 'MessageDeleted',
      data: { realmId: 1, messageId, senderId: 10, messageType: 'stream', streamId: 3, topic: 'Test topic', actorId: 10, at: '2026-01-01T00:10:00.000Z' },
    });
    expect(after([created, claimed, delivered, deleted(101)])).toMatchObject({ delivered: true });
    const docs = replay(scheduledMessagesProjection, recorded([created, claimed, delivered, deleted(100)], 'scheduled_message-7'));
    expect([...docs.keys()]).toEqual([]);
    // A message that was never a scheduled one leaves nothing behind either.
    expect([...replay(scheduledMessagesProjection, recorded([deleted(5)])).keys()]).toEqual([]);
  });
});
