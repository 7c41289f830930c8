import type { RealmEvent, RealmSettingsEvent } from '@app/domain';
import { defineProjection, unixSeconds } from '../shared/projection';
import { REALMS, type RealmDocument } from '@app/application';

/**
 * Organizations: created in the registry stream (`RealmCreated`), then changed on their own
 * `realm-<realmId>` streams (settings, deactivation). Every event carries the realm id.
 */
export const realmsProjection = defineProjection<RealmDocument, RealmEvent | RealmSettingsEvent>({
  name: 'realms',
  collection: { name: REALMS, fields: [{ name: 'string_id', type: 'string' }], unique: [['string_id']] },
  handles: ['RealmCreated', 'RealmPropertyChanged', 'RealmGroupSettingChanged', 'RealmDeactivated', 'RealmReactivated'],
  idsOf: (e) => [String(e.data.realmId)],
  evolve: (doc, e) => {
    switch (e.type) {
      case 'RealmCreated':
        return {
          id: e.data.realmId,
          string_id: e.data.stringId,
          name: e.data.name,
          description: e.data.description,
          date_created: unixSeconds(e.data.at),
          deactivated: false,
        };
      case 'RealmPropertyChanged': {
        if (!doc) return doc;
        const { property, newValue } = e.data;
        if (property === 'name' || property === 'description') return { ...doc, [property]: newValue as string };
        return { ...doc, messaging_settings: { ...doc.messaging_settings, [property]: newValue } };
      }
      case 'RealmGroupSettingChanged':
        return doc && { ...doc, group_settings: { ...doc.group_settings, [e.data.setting]: e.data.newValue } };
      case 'RealmDeactivated':
        return doc && { ...doc, deactivated: true };
      case 'RealmReactivated':
        return doc && { ...doc, deactivated: false };
      default:
        return doc;
    }
  },
});
