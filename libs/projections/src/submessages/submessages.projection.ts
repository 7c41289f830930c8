import { type ApiSubmessage, apiSubmessageOf, MESSAGE_SUBMESSAGES, type MessageSubmessagesDocument } from '@app/application';
import type { MessageDeleted, MessageSent, SubmessageAdded } from '@app/domain';
import { defineProjection } from '../shared/projection';

/** Adds one submessage in id order; a redelivered one (same id) is there already. */
const withSubmessage = (list: ApiSubmessage[], s: ApiSubmessage): ApiSubmessage[] | null =>
  list.some((x) => x.id === s.id) ? null : [...list, s].sort((a, b) => a.id - b.id);

/**
 * The submessages of each message (widgets: polls, to-do lists), by id, as message objects carry
 * them: the widget submessage the message was sent with (MessageSent `widget`), then those added
 * by POST /submessage. One document per message with submessages; GET /messages joins them in.
 * A deleted message's submessages go with it; its tombstone keeps a late one out.
 */
export const submessagesProjection = defineProjection<MessageSubmessagesDocument, MessageSent | SubmessageAdded | MessageDeleted>({
  name: 'message_submessages',
  collection: { name: MESSAGE_SUBMESSAGES, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: ['MessageSent', 'SubmessageAdded', 'MessageDeleted'],
  idsOf: (e) => (e.type === 'MessageSent' && !e.data.widget ? [] : [String(e.data.messageId)]),
  evolve: (doc, e) => {
    if (e.type === 'MessageDeleted') {
      const d = e.data;
      return { message_id: d.messageId, realm_id: d.realmId, submessages: [], deleted: true };
    }
    if (doc?.deleted) return doc;
    if (e.type === 'MessageSent') {
      const d = e.data;
      if (!d.widget) return doc;
      const widget = apiSubmessageOf(d.messageId, d.widget);
      const submessages = withSubmessage(doc?.submessages ?? [], widget);
      return submessages === null ? doc : { message_id: d.messageId, realm_id: d.realmId, submessages, widget_id: widget.id };
    }
    const d = e.data;
    const submessages = withSubmessage(doc?.submessages ?? [], apiSubmessageOf(d.messageId, d));
    if (submessages === null) return doc;
    return { ...(doc ?? {}), message_id: d.messageId, realm_id: d.realmId, submessages };
  },
});
