import { deciderSpec } from '@app/testing';
import {
  InvalidSubscriptionColorError,
  NotSubscribedToChannelError,
  SubscriptionPropertyNotBooleanError,
  UnknownSubscriptionPropertyError,
  isSubscriptionColor,
  subscriptionPropertiesDecider,
  type SubscriptionPropertiesCommand,
  type SubscriptionPropertyEvent,
  type SubscriptionSettings,
} from '@app/domain';

const given = deciderSpec(subscriptionPropertiesDecider);
const NOW = '2026-02-03T04:05:06.000Z';
const DEFAULTS: SubscriptionSettings = {
  color: '#76ce90', is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null,
  push_notifications: null, email_notifications: null, wildcard_mentions_notify: null,
};
const change = (...changes: [number, string, unknown, boolean?][]): SubscriptionPropertiesCommand => ({
  type: 'ChangeSubscriptionProperties',
  data: {
    realmId: 1, userId: 10, actorId: 10, now: NOW,
    changes: changes.map(([channelId, property, value, subscribed = true]) => ({ channelId, property, value, subscribed, current: DEFAULTS })),
  },
});
const changed = (channelId: number, property: string, oldValue: unknown, newValue: unknown): SubscriptionPropertyEvent =>
  ({ type: 'SubscriptionPropertyChanged', data: { realmId: 1, userId: 10, channelId, property, oldValue, newValue, actorId: 10, at: NOW } }) as SubscriptionPropertyEvent;

describe('subscriptionPropertiesDecider', () => {
  it('changes a color and a notification setting, with old values from the subscription', () =>
    given([]).when(change([3, 'color', '#ffffff'], [3, 'desktop_notifications', true])).then([
      changed(3, 'color', '#76ce90', '#ffffff'),
      changed(3, 'desktop_notifications', null, true),
    ]));

  it('records a change of is_muted as two events, in_home_view first (feature level 139)', () =>
    given([]).when(change([3, 'is_muted', true])).then([changed(3, 'in_home_view', true, false), changed(3, 'is_muted', false, true)]));

  it('records a change of in_home_view as the same two events', () =>
    given([]).when(change([3, 'in_home_view', false])).then([changed(3, 'in_home_view', true, false), changed(3, 'is_muted', false, true)]));

  it('takes old values from its own history, and later changes of one request see earlier ones', () => {
    given([changed(3, 'pin_to_top', false, true)]).when(change([3, 'pin_to_top', false])).then([changed(3, 'pin_to_top', true, false)]);
    given([]).when(change([3, 'color', '#111111'], [3, 'color', '#222222'])).then([changed(3, 'color', '#76ce90', '#111111'), changed(3, 'color', '#111111', '#222222')]);
    given([changed(3, 'in_home_view', true, false), changed(3, 'is_muted', false, true)]).when(change([3, 'in_home_view', true])).then([
      changed(3, 'in_home_view', false, true),
      changed(3, 'is_muted', true, false),
    ]);
  });

  it('records a change to the same value too, as Zulip does', () => given([]).when(change([3, 'pin_to_top', false])).then([changed(3, 'pin_to_top', false, false)]));

  it('refuses unknown properties, values of the wrong type and bad colors', () => {
    given([]).when(change([3, 'bad', 'bad'])).thenThrows(UnknownSubscriptionPropertyError, 'Unknown subscription property: bad');
    given([]).when(change([3, 'is_muted', 'bad'])).thenThrows(SubscriptionPropertyNotBooleanError, 'is_muted is not a boolean');
    given([]).when(change([3, 'wildcard_mentions_notify', 'true'])).thenThrows(SubscriptionPropertyNotBooleanError, 'wildcard_mentions_notify is not a boolean');
    given([]).when(change([3, 'color', '3ffrff'])).thenThrows(InvalidSubscriptionColorError, 'color is not a valid hex color code');
    given([]).when(change([3, 'color', false])).thenThrows(InvalidSubscriptionColorError);
  });

  it('refuses a channel the user is not subscribed to, and changes nothing of the request', () =>
    given([]).when(change([3, 'pin_to_top', true], [4, 'pin_to_top', true, false])).thenThrows(NotSubscribedToChannelError, 'Not subscribed to channel ID 4'));

  it('takes check_color\'s colors: # and three to six hex digits', () => {
    expect(['#000099', '#80FFAA', '#ff0', '#abcd', '#abcde'].every(isSubscriptionColor)).toBe(true);
    expect(['000099', '#80f_aa', '#abcd1234', 'blue', '#ab'].some(isSubscriptionColor)).toBe(false);
  });
});
