import type { RealmEvent } from '@app/domain';
import type { RecordedEvent } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';
import { REALMS, type RealmDocument } from '@app/application';


export const realmsProjection = defineProjection<RealmDocument>({
  name: 'realms',
  collection: { name: REALMS, fields: [{ name: 'string_id', type: 'string' }], unique: [['string_id']] },
  handles: ['RealmCreated'],
  idsOf: (event) => [String((event.data as RealmEvent['data']).realmId)],
  evolve: (doc, event: RecordedEvent) => {
    const e = { type: event.type, data: event.data } as RealmEvent;
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
      default:
        return doc;
    }
  },
});
