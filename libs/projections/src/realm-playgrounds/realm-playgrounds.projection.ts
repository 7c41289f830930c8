import { REALM_PLAYGROUND_EVENT_TYPES, type RealmPlaygroundEvent } from '@app/domain';
import { REALM_PLAYGROUNDS, type RealmPlaygroundDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/** Code playgrounds (Zulip's RealmPlayground), from `realm_playgrounds-<realmId>`. */
export const realmPlaygroundsProjection = defineProjection<RealmPlaygroundDocument, RealmPlaygroundEvent>({
  name: 'realm_playgrounds',
  collection: { name: REALM_PLAYGROUNDS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: REALM_PLAYGROUND_EVENT_TYPES,
  idsOf: (event) => [String(event.data.playgroundId)],
  evolve: (doc, e) => {
    switch (e.type) {
      case 'RealmPlaygroundAdded':
        return { id: e.data.playgroundId, realm_id: e.data.realmId, name: e.data.name, pygments_language: e.data.pygmentsLanguage, url_template: e.data.urlTemplate };
      case 'RealmPlaygroundRemoved':
        return null;
      default:
        return doc;
    }
  },
});
