import { recorded, replay, subscriptionsCreated, subscriptionsDeactivated, subscriptionsReactivated } from '@app/testing';
import { channelMembersProjection, subscriptionsProjection } from './subscriptions.projection';

const subscriptions = (events: { type: string; data: object }[]) => replay(subscriptionsProjection, recorded(events, 'subscriptions-1'));
const members = (events: { type: string; data: object }[]) => replay(channelMembersProjection, recorded(events, 'subscriptions-1'));

describe('subscriptionsProjection', () => {
  it('stores one subscription per user and channel with Zulip\'s default settings and the picked color', () => {
    const docs = subscriptions([subscriptionsCreated(3, [{ userId: 10, color: '#fae589' }, { userId: 11, color: '#76ce90' }])]);
    expect([...docs.keys()]).toEqual(['10:3', '11:3']);
    expect(docs.get('10:3')).toEqual({
      user_id: 10,
      channel_id: 3,
      realm_id: 1,
      active: true,
      color: '#fae589',
      is_muted: false,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it('keeps a left subscription, inactive, and restores it with its color', () => {
    const left = subscriptions([subscriptionsCreated(3, [{ userId: 10, color: '#e4523d' }]), subscriptionsDeactivated(3, [10])]);
    expect(left.get('10:3')).toMatchObject({ active: false, color: '#e4523d' });
    const back = subscriptions([subscriptionsCreated(3, [{ userId: 10, color: '#e4523d' }]), subscriptionsDeactivated(3, [10]), subscriptionsReactivated(3, [10])]);
    expect(back.get('10:3')).toMatchObject({ active: true, color: '#e4523d' });
  });

  it('handles 10,000 users in one event', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => i + 1);
    const started = Date.now();
    const docs = subscriptions([subscriptionsCreated(3, ids)]);
    expect(docs.size).toBe(10_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('channelMembersProjection', () => {
  it('keeps the channel\'s active subscribers in one ascending list', () => {
    const doc = members([
      subscriptionsCreated(3, [12, 10]),
      subscriptionsCreated(3, [11]),
      subscriptionsDeactivated(3, [10]),
      subscriptionsReactivated(3, [10]),
      subscriptionsDeactivated(3, [12]),
    ]).get('3');
    expect(doc).toEqual({ channel_id: 3, realm_id: 1, subscriber_ids: [10, 11] });
  });

  it('never lists anyone twice', () => {
    expect(members([subscriptionsCreated(3, [10]), subscriptionsReactivated(3, [10])]).get('3')!.subscriber_ids).toEqual([10]);
  });
});
