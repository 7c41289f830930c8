import { type MessageDeleted, SCHEDULED_MESSAGE_EVENT_TYPES, type ScheduledMessageBody, type ScheduledMessageEvent } from '@app/domain';
import { SCHEDULED_MESSAGES, type ScheduledMessageDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/** The body's fields in ScheduledMessage.to_dict's shape. */
const bodyFields = (body: ScheduledMessageBody) => ({
  type: body.recipient.type,
  to: body.recipient.type === 'stream' ? body.recipient.streamId : body.recipient.userIds,
  topic: body.recipient.type === 'stream' ? body.recipient.topic : '',
  content: body.content,
  rendered_content: body.renderedContent,
  scheduled_delivery_timestamp: body.deliverAt,
  client: body.client,
});

/**
 * Beside each delivered scheduled message, `delivered:<messageId>` names it, so that the deletion
 * of the message it became (whose event names only the message) deletes it too: Zulip's
 * `delivered_message` is on_delete=CASCADE, and the document holds the message's text.
 */
type DeliveredLink = { scheduled_message_id: number };
const deliveredLinkId = (messageId: number) => `delivered:${messageId}`;

/** Scheduled messages in the shape of ScheduledMessage.to_dict, one document per scheduled message. */
export const scheduledMessagesProjection = defineProjection<ScheduledMessageDocument | DeliveredLink, ScheduledMessageEvent | MessageDeleted>({
  name: 'scheduled_messages',
  collection: {
    name: SCHEDULED_MESSAGES,
    fields: [
      { name: 'sender_id', type: 'number' },
      { name: 'delivered', type: 'boolean' },
      { name: 'failed', type: 'boolean', index: false },
      { name: 'scheduled_delivery_timestamp', type: 'number', index: false },
      { name: 'scheduled_message_id', type: 'number', index: false },
    ],
    // GET /scheduled_messages: one sender's undelivered ones, soonest first; the boot re-arm: all
    // undelivered, unfailed ones.
    compoundIndexes: [
      ['sender_id', 'delivered', 'scheduled_delivery_timestamp'],
      ['delivered', 'failed', 'scheduled_delivery_timestamp'],
    ],
  },
  handles: [...SCHEDULED_MESSAGE_EVENT_TYPES, 'MessageDeleted'],
  idsOf: (event) => {
    switch (event.type) {
      case 'MessageDeleted':
        return [deliveredLinkId(event.data.messageId)];
      case 'ScheduledMessageDelivered':
        return [String(event.data.scheduledMessageId), deliveredLinkId(event.data.messageId)];
      default:
        return [String(event.data.scheduledMessageId)];
    }
  },
  followIds: (event, docOf) => {
    if (event.type !== 'MessageDeleted') return [];
    const link = docOf(deliveredLinkId(event.data.messageId)) as DeliveredLink | null;
    return link ? [String(link.scheduled_message_id)] : [];
  },
  evolve: (stored, e, id) => {
    if (e.type === 'MessageDeleted') return null;
    if (id.startsWith('delivered:')) return e.type === 'ScheduledMessageDelivered' ? { scheduled_message_id: e.data.scheduledMessageId } : stored;
    const doc = stored as ScheduledMessageDocument | null;
    switch (e.type) {
      case 'ScheduledMessageCreated': {
        const { scheduledMessageId, realmId, senderId, readBySender, recipient, content, renderedContent, deliverAt, client } = e.data;
        return {
          scheduled_message_id: scheduledMessageId,
          realm_id: realmId,
          sender_id: senderId,
          ...bodyFields({ recipient, content, renderedContent, deliverAt, client }),
          failed: false,
          failure_message: null,
          read_by_sender: readBySender,
          delivered: false,
          claimed_message_id: null,
          delivered_message_id: null,
        };
      }
      case 'ScheduledMessageEdited':
        return doc && { ...doc, ...bodyFields(e.data.new), failed: false, failure_message: null };
      case 'ScheduledMessageDeleted':
        return null;
      case 'ScheduledMessageDeliveryClaimed':
        return doc && { ...doc, claimed_message_id: e.data.messageId };
      case 'ScheduledMessageDelivered':
        return doc && { ...doc, delivered: true, failed: false, failure_message: null, delivered_message_id: e.data.messageId };
      case 'ScheduledMessageDeliveryFailed':
        return doc && { ...doc, failed: true, failure_message: e.data.failureMessage };
    }
  },
});
