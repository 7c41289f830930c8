import { LINKIFIER_EVENT_TYPES, type LinkifierEvent } from '@app/domain';
import { LINKIFIERS, type LinkifierDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/** Linkifiers (Zulip's RealmFilter), from `realm_linkifiers-<realmId>`. */
export const linkifiersProjection = defineProjection<LinkifierDocument, LinkifierEvent>({
  name: 'realm_linkifiers',
  collection: { name: LINKIFIERS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: LINKIFIER_EVENT_TYPES,
  idsOf: (e) => {
    return e.type === 'LinkifiersReordered' ? Object.keys(e.data.positions) : [String(e.data.linkifierId)];
  },
  evolve: (doc, e, id) => {
    switch (e.type) {
      case 'LinkifierAdded':
        return { id: e.data.linkifierId, realm_id: e.data.realmId, pattern: e.data.pattern, url_template: e.data.urlTemplate, order: e.data.order };
      case 'LinkifierChanged':
        return doc && { ...doc, pattern: e.data.pattern, url_template: e.data.urlTemplate };
      case 'LinkifierRemoved':
        return null;
      case 'LinkifiersReordered':
        return doc && { ...doc, order: e.data.positions[Number(id)] ?? doc.order };
      default:
        return doc;
    }
  },
});
