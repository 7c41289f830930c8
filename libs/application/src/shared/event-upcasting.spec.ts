import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStorePort, EventToAppend, RecordedEvent } from '../ports/event-store.port';
import { UpcasterRegistry, UpcastingEventStore } from './event-upcasting';
import { ALL_UPCASTERS, upcasterRegistry } from '../operations/upcasters';

const FIXTURES = join(__dirname, '../../../../test/fixtures/events');

/** The stored v1 fixture as the store would deliver it. */
const storedV1 = (): RecordedEvent[] =>
  readFileSync(join(FIXTURES, 'user-status-changed.v1.ndjson'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const e = JSON.parse(line);
      return { ...e, revision: BigInt(e.revision), position: BigInt(index + 1) };
    });

describe('event versions', () => {
  it('upcasts the stored UserStatusChanged v1 events to the current shape', () => {
    const registry = upcasterRegistry();
    expect(registry.currentVersion('UserStatusChanged')).toBe(2);
    expect(registry.currentVersion('MessageSent')).toBe(1);
    const [set, cleared, emojiOnly] = storedV1().map((e) => registry.upcast(e));
    expect(set.data).toEqual({ realmId: 2, userId: 10, statusText: 'out sick', emojiName: 'sick', emojiCode: '1f912', reactionType: 'unicode_emoji', actorId: 10, at: '2025-03-01T09:00:00.000Z' });
    expect(set.metadata).toMatchObject({ schemaVersion: 2, upcastFrom: 1, commandId: 'c1' });
    expect(cleared.data).toEqual({ realmId: 2, userId: 10, statusText: 'back', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji', actorId: 10, at: '2025-03-02T09:00:00.000Z' });
    expect(emojiOnly.data).toEqual({ realmId: 2, userId: 10, emojiName: 'palm_tree', emojiCode: '1f334', reactionType: 'unicode_emoji', actorId: 10, at: '2025-03-03T09:00:00.000Z' });
  });

  it('leaves current events alone, and v1 events already in the flat shape', () => {
    const registry = upcasterRegistry();
    const [first] = storedV1();
    const current = { ...first, metadata: { schemaVersion: 2 }, data: { realmId: 2, userId: 10, statusText: 'x', actorId: 10, at: first.data.at } };
    expect(registry.upcast(current)).toBe(current);
    const flatV1 = { ...current, metadata: { schemaVersion: 1 } };
    expect(registry.upcast(flatV1)).toBe(flatV1);
  });

  it('upcasts email-change events that held the confirmation key (v1) to its digest (v2)', () => {
    const registry = upcasterRegistry();
    const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
    const recorded = (type: string, data: object): RecordedEvent =>
      ({ id: 'e', streamId: 'user_settings-10', type, data, metadata: { schemaVersion: 1 }, revision: 0n, position: 1n }) as RecordedEvent;
    const requested = registry.upcast(recorded('EmailChangeRequested', { realmId: 1, userId: 10, oldEmail: 'a@x', newEmail: 'b@x', token: 'newkey', expiresAt: 'E', revokedTokens: ['oldkey'], actorId: 10, at: 'T' }));
    expect(requested.data).toEqual({ realmId: 1, userId: 10, oldEmail: 'a@x', newEmail: 'b@x', keyDigest: sha256('newkey'), expiresAt: 'E', revokedKeyDigests: [sha256('oldkey')], actorId: 10, at: 'T' });
    expect(requested.metadata).toMatchObject({ schemaVersion: 2, upcastFrom: 1 });
    const confirmed = registry.upcast(recorded('EmailChangeConfirmed', { realmId: 1, userId: 10, token: 'newkey', oldEmail: 'a@x', newEmail: 'b@x', at: 'T' }));
    expect(confirmed.data).toEqual({ realmId: 1, userId: 10, keyDigest: sha256('newkey'), oldEmail: 'a@x', newEmail: 'b@x', at: 'T' });
    expect(JSON.stringify([requested.data, confirmed.data])).not.toMatch(/newkey|oldkey/);
  });

  it('chains upcasters one version at a time and refuses two for one version', () => {
    const registry = new UpcasterRegistry([
      { type: 'Renamed', fromVersion: 1, upcast: (d) => ({ title: d.name }) },
      { type: 'Renamed', fromVersion: 2, upcast: (d) => ({ ...d, subtitle: '' }) },
    ]);
    const [e] = storedV1();
    expect(registry.upcast({ ...e, type: 'Renamed', data: { name: 'a' } }).data).toEqual({ title: 'a', subtitle: '' });
    expect(registry.upcast({ ...e, type: 'Renamed', data: { title: 'b' }, metadata: { schemaVersion: 2 } }).data).toEqual({ title: 'b', subtitle: '' });
    expect(() => new UpcasterRegistry([...ALL_UPCASTERS, ...ALL_UPCASTERS])).toThrow('two upcasters for UserStatusChanged v1');
  });

  it('stamps appends with the current version and upcasts every read', async () => {
    const appended: EventToAppend[][] = [];
    const stored = storedV1();
    const raw = {
      appendToStream: async (_s: string, events: EventToAppend[]) => {
        appended.push(events);
        return { nextExpectedRevision: 0n, position: 1n };
      },
      readStream: async () => ({ events: stored, revision: 2n }),
      readAll: async () => stored,
      subscribeToAll: (_o: object, handler: (e: RecordedEvent[]) => Promise<void>) => {
        void handler(stored);
        return { close: async () => undefined, done: Promise.resolve() };
      },
    } as unknown as EventStorePort;
    const store = new UpcastingEventStore(raw, upcasterRegistry());
    await store.appendToStream('user_status-1', [
      { id: 'a', type: 'UserStatusChanged', data: {}, metadata: { schemaVersion: 1 } },
      { id: 'b', type: 'MessageSent', data: {}, metadata: { schemaVersion: 1 } },
    ], { expectedRevision: 'any' });
    expect(appended[0].map((e) => e.metadata.schemaVersion)).toEqual([2, 1]);
    expect((await store.readStream('user_status-10')).events.every((e) => !('emoji' in e.data))).toBe(true);
    expect((await store.readAll({ maxCount: 10 })).map((e) => e.metadata.schemaVersion)).toEqual([2, 2, 2]);
    const delivered: RecordedEvent[] = [];
    store.subscribeToAll({}, async (events) => void delivered.push(...events));
    expect(delivered.map((e) => e.data.emojiName)).toEqual(['sick', '', 'palm_tree']);
  });
});
