import { recorded, replay } from '@app/testing';
import { submessagesProjection } from './submessages.projection';

const AT = '2026-03-04T05:06:07.000Z';
const POLL = '{"widget_type": "poll", "extra_data": {"question": "Q", "options": []}}';
const sent = (widget?: object) => ({ type: 'MessageSent', data: { realmId: 1, messageId: 42, senderId: 10, ...(widget ? { widget } : {}) } });
const added = (submessageId: number, senderId: number, content: string) => ({
  type: 'SubmessageAdded',
  data: { realmId: 1, messageId: 42, submessageId, senderId, msgType: 'widget', content, at: AT },
});
const after = (events: { type: string; data: object }[]) => replay(submessagesProjection, recorded(events, 'message-42'));
const api = (id: number, senderId: number, content: string) => ({ id, message_id: 42, sender_id: senderId, msg_type: 'widget', content });

describe('submessagesProjection', () => {
  it("keeps the widget the message was sent with, then the added submessages, by id, in the API's shape", () => {
    const docs = after([sent({ submessageId: 1, senderId: 10, msgType: 'widget', content: POLL }), added(4, 11, '{"v":2}'), added(3, 12, '{"v":1}')]);
    expect(docs.get('42')).toEqual({ message_id: 42, realm_id: 1, widget_id: 1, submessages: [api(1, 10, POLL), api(3, 12, '{"v":1}'), api(4, 11, '{"v":2}')] });
  });

  it('keeps nothing for a message sent without a widget', () => expect(after([sent()]).size).toBe(0));

  it('drops the submessages of a deleted message, and one recorded after the deletion', () => {
    const deleted = { type: 'MessageDeleted', data: { realmId: 1, messageId: 42 } };
    expect(after([sent({ submessageId: 1, senderId: 10, msgType: 'widget', content: POLL }), deleted]).get('42')).toEqual({ message_id: 42, realm_id: 1, submessages: [], deleted: true });
    expect(after([deleted, added(3, 11, '{}')]).get('42')?.submessages).toEqual([]);
  });

  it('is the same under redelivery', () => {
    const events = recorded([sent({ submessageId: 1, senderId: 10, msgType: 'widget', content: POLL }), added(3, 11, '{}')], 'message-42');
    expect(replay(submessagesProjection, [...events, ...events])).toEqual(replay(submessagesProjection, events));
  });
});
