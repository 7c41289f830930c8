import { realmCreated, recorded, replay } from '@app/testing';
import type { RealmSettingsEvent } from '@app/domain';
import { realmsProjection } from './realms.projection';

const AT = '2026-04-01T12:00:00.000Z';
const changed = (property: 'name' | 'description', oldValue: string, newValue: string): RealmSettingsEvent => ({
  type: 'RealmPropertyChanged', data: { realmId: 1, property, oldValue, newValue, actorId: 1, at: AT },
});
const deactivated: RealmSettingsEvent = { type: 'RealmDeactivated', data: { realmId: 1, reason: 'owner_request', actorId: 1, at: AT } };
const reactivated: RealmSettingsEvent = { type: 'RealmReactivated', data: { realmId: 1, actorId: null, at: AT } };

/** The registry stream creates the organization; its own stream changes it. */
const realmAfter = (events: RealmSettingsEvent[]) =>
  replay(realmsProjection, [...recorded([realmCreated({ name: 'Acme', description: 'Old' })], 'realm_registry-server'), ...recorded(events, 'realm-1')]).get('1');

describe('realmsProjection: settings and deactivation from realm-<realmId>', () => {
  it('handles the organization stream\'s events', () =>
    expect(realmsProjection.handles).toEqual(expect.arrayContaining(['RealmCreated', 'RealmPropertyChanged', 'RealmDeactivated', 'RealmReactivated'])));

  it('renames and re-describes the organization', () =>
    expect(realmAfter([changed('name', 'Acme', 'Acme Corp'), changed('description', 'Old', 'New')])).toEqual({
      id: 1, string_id: 'acme', name: 'Acme Corp', description: 'New', date_created: 1767225600, deactivated: false,
    }));

  it('marks the organization deactivated, and active again', () => {
    expect(realmAfter([deactivated])).toMatchObject({ deactivated: true });
    expect(realmAfter([deactivated, reactivated])).toMatchObject({ deactivated: false });
  });

  it('ignores settings events of an organization it does not know', () =>
    expect(replay(realmsProjection, recorded([changed('name', 'a', 'b'), deactivated], 'realm-1')).size).toBe(0));
});
