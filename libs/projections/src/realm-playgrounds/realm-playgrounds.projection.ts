import { REALM_PLAYGROUND_EVENT_TYPES, type RealmPlaygroundEvent } from '@app/domain';
import { REALM_PLAYGROUNDS, type RealmPlaygroundDocument, type RecordedEvent } from '@app/application';
import { defineProjection } from '../shared/projection';

const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as RealmPlaygroundEvent;

/** Code playgrounds (Zulip's RealmPlayground), from `realm_playgrounds-<realmId>`. */
export const realmPlaygroundsProjection = defineProjection<RealmPlaygroundDocument>({
  name: 'realm_playgrounds',
  collection: { name: REALM_PLAYGROUNDS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: REALM_PLAYGROUND_EVENT_TYPES,
  idsOf: (event) => [String(asEvent(event).data.playgroundId)],
  evolve: (doc, event) => {
    const e = asEvent(event);
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
