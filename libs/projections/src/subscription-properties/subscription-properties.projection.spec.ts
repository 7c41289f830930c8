import { recorded, replay, subscriptionsCreated, subscriptionsDeactivated, subscriptionsReactivated } from '@app/testing';
import { subscriptionsProjection } from '../subscriptions/subscriptions.projection';

const changed = (channelId: number, property: string, oldValue: unknown, newValue: unknown) => ({
  type: 'SubscriptionPropertyChanged', data: { realmId: 1, userId: 10, channelId, property, oldValue, newValue, actorId: 10, at: '2026-01-01T00:00:00.000Z' },
});

describe('subscription documents and their settings', () => {
  it('reflect each change of the user\'s settings', () => {
    const docs = replay(subscriptionsProjection, recorded([
      subscriptionsCreated(3, [10, 11]),
      changed(3, 'color', '#76ce90', '#abc'),
      changed(3, 'in_home_view', true, false),
      changed(3, 'is_muted', false, true),
      changed(3, 'pin_to_top', false, true),
      changed(3, 'desktop_notifications', null, false),
      changed(3, 'wildcard_mentions_notify', null, true),
    ]));
    expect(docs.get('10:3')).toMatchObject({ color: '#abc', is_muted: true, pin_to_top: true, desktop_notifications: false, wildcard_mentions_notify: true, audible_notifications: null });
    expect(docs.get('11:3')).toMatchObject({ color: '#76ce90', is_muted: false, pin_to_top: false });
  });

  it('take in_home_view as the inverse of is_muted', () => {
    const docs = replay(subscriptionsProjection, recorded([subscriptionsCreated(3, [10]), changed(3, 'in_home_view', true, false)]));
    expect(docs.get('10:3')!.is_muted).toBe(true);
  });

  it('keep the settings while the user is away and after they return', () => {
    const docs = replay(subscriptionsProjection, recorded([
      subscriptionsCreated(3, [10]),
      changed(3, 'pin_to_top', false, true),
      subscriptionsDeactivated(3, [10]),
      subscriptionsReactivated(3, [10]),
    ]));
    expect(docs.get('10:3')).toMatchObject({ active: true, pin_to_top: true });
  });
});
