import type { RecordedEvent } from '../ports/event-store.port';
import { changesOf, historyTable, toHistoryEntry } from './stream-history';
import { collectIds } from './event-log-backup';

const event = (type: string, data: object, metadata: object = {}): RecordedEvent => ({
  id: 'e', streamId: 'users-1', revision: 3n, position: 42n, type, data, metadata: { schemaVersion: 1, ...metadata }, recordedAt: '2026-01-01T00:00:00.000Z',
});

describe('audit history entries', () => {
  it('reads old → new values by the event conventions', () => {
    expect(changesOf({ userId: 1, oldRole: 'member', newRole: 'administrator' })).toEqual([{ field: 'role', old: 'member', new: 'administrator' }]);
    expect(changesOf({ property: 'name', oldValue: 'A', newValue: 'B' })).toEqual([{ field: 'name', old: 'A', new: 'B' }]);
    expect(changesOf({ setting: 'can_resolve_topics_group', oldValue: 'role:everyone', newValue: 'role:members' })).toEqual([
      { field: 'can_resolve_topics_group', old: 'role:everyone', new: 'role:members' },
    ]);
    expect(changesOf({ prevContent: 'a', content: 'b', prevRenderedContent: '<p>a</p>', renderedContent: '<p>b</p>' })).toEqual([
      { field: 'content', old: 'a', new: 'b' },
      { field: 'rendered_content', old: '<p>a</p>', new: '<p>b</p>' },
    ]);
    expect(changesOf({ old: { inviteOnly: false }, new: { inviteOnly: true } })).toEqual([{ field: 'value', old: { inviteOnly: false }, new: { inviteOnly: true } }]);
    expect(changesOf({ oldName: 'x' })).toEqual([]);
  });

  it('says who and when: actorId (null for the system), else the editor or sender; the event time', () => {
    expect(toHistoryEntry(event('UserRoleChanged', { actorId: 7, at: '2026-02-02T00:00:00.000Z', oldRole: 'member', newRole: 'moderator' }))).toEqual({
      position: '42', stream: 'users-1', revision: '3', type: 'UserRoleChanged', at: '2026-02-02T00:00:00.000Z', actor_id: 7,
      changes: [{ field: 'role', old: 'member', new: 'moderator' }], schema_version: 1,
      data: { actorId: 7, at: '2026-02-02T00:00:00.000Z', oldRole: 'member', newRole: 'moderator' }, hidden: [],
    });
    expect(toHistoryEntry(event('UserCreated', { actorId: null, senderId: 3 })).actor_id).toBeNull();
    expect(toHistoryEntry(event('MessageContentEdited', { editorId: 9 })).actor_id).toBe(9);
    expect(toHistoryEntry(event('MessageSent', { senderId: 4 })).at).toBe('2026-01-01T00:00:00.000Z');
  });

  it('prints a table', () => {
    const lines = historyTable([toHistoryEntry(event('UserFullNameChanged', { actorId: 7, at: 'T', oldName: 'A', newName: 'B' }))]);
    expect(lines).toEqual([
      'POSITION  WHEN  WHO  WHAT                 STREAM   CHANGES',
      '42        T     7    UserFullNameChanged  users-1  name: A → B',
    ]);
  });
});

describe('id sequences after an import', () => {
  it('collects the largest id of each kind, nested lists included', () => {
    const maxima = new Map<string, number>();
    collectIds({ messageId: 5, recipient: { streamId: 3 }, userId: 2 }, maxima);
    collectIds({ userId: 9, drafts: [{ draftId: 4 }, { draftId: 12 }] }, maxima);
    collectIds({ realmId: 1, playgroundId: 7 }, maxima);
    expect(Object.fromEntries(maxima)).toEqual({ message: 5, channel: 3, user: 9, draft: 12, realm_playground: 7 });
  });
});
