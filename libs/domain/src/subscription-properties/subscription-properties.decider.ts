import type { Decider } from '../shared/decider';
import type { SubscriptionPropertyChanged, SubscriptionPropertyEvent } from './subscription-properties.events';
import { NotSubscribedToChannelError } from './subscription-properties.errors';
import {
  type StoredSubscriptionProperty,
  type SubscriptionSettings,
  checkSubscriptionPropertyChange,
} from './subscription-properties.rules';

/**
 * One request's changes, in order (update_subscription_properties_backend). For each: whether the
 * user is subscribed now and the subscription's settings in the read model, which stand for what
 * this stream never changed (colors are picked when subscribing).
 */
export type ChangeSubscriptionProperties = {
  type: 'ChangeSubscriptionProperties';
  data: {
    realmId: number;
    userId: number;
    actorId: number | null;
    now: string;
    changes: { channelId: number; property: string; value: unknown; subscribed: boolean; current: SubscriptionSettings }[];
  };
};

export type SubscriptionPropertiesCommand = ChangeSubscriptionProperties;
export type SubscriptionPropertiesState = { values: Record<number, Partial<SubscriptionSettings>> };

/** The user's settings of their subscriptions (stream `subscription_properties-<userId>`). */
export const subscriptionPropertiesDecider: Decider<SubscriptionPropertiesCommand, SubscriptionPropertyEvent, SubscriptionPropertiesState> = {
  snapshot: { name: 'subscription-properties', version: 1 },
  initialState: () => ({ values: {} }),

  decide: (command, state) => {
    const { realmId, userId, actorId, now: at } = command.data;
    // Every change is checked before any is made.
    const checked = command.data.changes.map((change) => {
      const { property, value } = checkSubscriptionPropertyChange(change.property, change.value);
      if (!change.subscribed) throw new NotSubscribedToChannelError(change.channelId);
      return { ...change, property, value };
    });
    // Later changes of one request see earlier ones, as Zulip's sequential updates do.
    const values: Record<number, Partial<SubscriptionSettings>> = { ...state.values };
    const events: SubscriptionPropertyChanged[] = [];
    const base = { realmId, userId, actorId, at };
    for (const { channelId, property, value, current } of checked) {
      const stored: StoredSubscriptionProperty = property === 'in_home_view' ? 'is_muted' : property;
      const storedValue = property === 'in_home_view' ? !value : value;
      const known = values[channelId] ?? {};
      const old = stored in known ? known[stored]! : current[stored];
      values[channelId] = { ...known, [stored]: storedValue };
      if (stored === 'is_muted') {
        // Feature level 139: clients get `in_home_view`, then `is_muted`.
        events.push({ type: 'SubscriptionPropertyChanged', data: { ...base, channelId, property: 'in_home_view', oldValue: !old, newValue: !storedValue } });
      }
      events.push({ type: 'SubscriptionPropertyChanged', data: { ...base, channelId, property: stored, oldValue: old, newValue: storedValue } });
    }
    return events;
  },

  evolve: (state, event) => {
    if (event.type !== 'SubscriptionPropertyChanged') return state;
    const { channelId, property, newValue } = event.data;
    const stored = property === 'in_home_view' ? 'is_muted' : property;
    const value = property === 'in_home_view' ? !newValue : newValue;
    return { values: { ...state.values, [channelId]: { ...state.values[channelId], [stored]: value } } };
  },
};
