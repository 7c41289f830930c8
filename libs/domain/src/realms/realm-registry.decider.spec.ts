import { deciderSpec, realmCreated } from '@app/testing';
import {
  InvalidRealmNameError,
  InvalidRealmStringIdError,
  MAX_REALM_NAME_LENGTH,
  RealmStringIdTakenError,
  realmRegistryDecider,
  type RealmRegistryCommand,
} from '@app/domain';

const given = deciderSpec(realmRegistryDecider);
const NOW = '2026-03-01T12:00:00.000Z';

const createRealm = (overrides: Partial<RealmRegistryCommand['data']> = {}): RealmRegistryCommand => ({
  type: 'CreateRealm',
  data: { stringId: 'acme', name: 'Acme Corp', description: 'Makers of everything', now: NOW, ...overrides },
});

describe('realmRegistryDecider', () => {
  it('creates the first organization with id 1, at the time of the command', () =>
    given([]).when(createRealm()).then([
      { type: 'RealmCreated', data: { realmId: 1, stringId: 'acme', name: 'Acme Corp', description: 'Makers of everything', at: NOW } },
    ]));

  it('hands out increasing ids', () =>
    given([realmCreated({ realmId: 1, stringId: 'acme' }), realmCreated({ realmId: 2, stringId: 'lear' })])
      .when(createRealm({ stringId: 'denmark' }))
      .thenMatches([{ data: { realmId: 3, stringId: 'denmark' } }]));

  it('never reuses an id below the highest one recorded, even after a gap', () =>
    given([realmCreated({ realmId: 7, stringId: 'acme' }), realmCreated({ realmId: 3, stringId: 'lear' })])
      .when(createRealm({ stringId: 'denmark' }))
      .thenMatches([{ data: { realmId: 8 } }]));

  it('trims the name', () =>
    given([]).when(createRealm({ name: '  Acme Corp \t' })).thenMatches([{ data: { name: 'Acme Corp' } }]));

  it.each(['a', 'acme', 'acme-2', 'a1', '0day', 'x'.repeat(40)])('accepts the subdomain %j', (stringId) =>
    given([]).when(createRealm({ stringId })).thenMatches([{ data: { stringId } }]));

  it.each(['', 'Acme', '-acme', 'acme-', 'ac me', 'acme.corp', 'acmé', 'x'.repeat(41), 'acme_corp'])(
    'rejects the subdomain %j',
    (stringId) =>
      given([]).when(createRealm({ stringId })).thenThrows(InvalidRealmStringIdError, "Subdomain can only have lowercase letters, numbers, and '-'s."),
  );

  it('rejects a subdomain already in use', () =>
    given([realmCreated({ realmId: 1, stringId: 'acme' })])
      .when(createRealm({ stringId: 'acme', name: 'Another Acme' }))
      .thenThrows(RealmStringIdTakenError, "Subdomain 'acme' is already in use"));

  it('allows a second organization with the same display name', () =>
    given([realmCreated({ realmId: 1, stringId: 'acme', name: 'Acme Corp' })])
      .when(createRealm({ stringId: 'acme2', name: 'Acme Corp' }))
      .thenMatches([{ data: { realmId: 2, name: 'Acme Corp' } }]));

  it.each(['', '   '])('rejects the empty name %j', (name) =>
    given([]).when(createRealm({ name })).thenThrows(InvalidRealmNameError, "Organization name can't be empty."));

  it('accepts a name of exactly 40 characters and rejects 41', () => {
    expect(MAX_REALM_NAME_LENGTH).toBe(40);
    given([]).when(createRealm({ name: 'n'.repeat(40) })).thenMatches([{ data: { name: 'n'.repeat(40) } }]);
    given([]).when(createRealm({ name: 'n'.repeat(41) })).thenThrows(InvalidRealmNameError, 'Organization name is too long.');
  });

  it('counts the name length in characters, not UTF-16 units', () =>
    given([]).when(createRealm({ name: '🏰'.repeat(40) })).thenMatches([{ data: { name: '🏰'.repeat(40) } }]));

  it('evolve ignores events it does not know', () => {
    const state = realmRegistryDecider.initialState();
    expect(realmRegistryDecider.evolve(state, { type: 'Other', data: {} } as never)).toEqual(state);
  });
});
