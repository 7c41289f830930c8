import { recorded, replay, userCreated, userDeactivated, userRoleChanged } from '@app/testing';
import type { UserEvent } from '@app/domain';
import { credentialsProjection, usersProjection } from './users.projection';

const AT = '2026-01-01T00:00:00.000Z';
const reactivated = (userId: number): UserEvent => ({ type: 'UserReactivated', data: { realmId: 1, userId, actorId: null, at: AT } });
const renamed = (userId: number, oldName: string, newName: string): UserEvent => ({
  type: 'UserFullNameChanged', data: { realmId: 1, userId, oldName, newName, actorId: null, at: AT },
});
const apiKeyRegenerated = (userId: number, apiKeyId: string): UserEvent => ({
  type: 'UserApiKeyRegenerated', data: { realmId: 1, userId, apiKeyId, actorId: null, at: AT },
});
const passwordChanged = (userId: number, passwordId: string): UserEvent => ({
  type: 'UserPasswordChanged', data: { realmId: 1, userId, passwordId, actorId: null, at: AT },
});

const usersAfter = (events: UserEvent[]) => replay(usersProjection, recorded(events, 'users-1'));
const credentialsAfter = (events: UserEvent[]) => replay(credentialsProjection, recorded(events, 'users-1'));

describe('usersProjection', () => {
  it('stores a user in the shape of Zulip\'s GET /users, keyed by user id', () => {
    const docs = usersAfter([
      userCreated({ userId: 10, email: 'Hamlet@acme.test', fullName: 'King Hamlet', role: 'member', timezone: 'Europe/Copenhagen', at: '2026-01-02T03:04:05.000Z' }),
    ]);
    expect([...docs.keys()]).toEqual(['10']);
    expect(docs.get('10')).toEqual({
      user_id: 10,
      realm_id: 1,
      email: 'Hamlet@acme.test',
      delivery_email: 'Hamlet@acme.test',
      full_name: 'King Hamlet',
      date_joined: '2026-01-02T03:04:05.000Z',
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      role: 400,
      role_name: 'member',
      timezone: 'Europe/Copenhagen',
      avatar_version: 1,
      is_billing_admin: false,
    });
  });

  it.each([
    ['owner', 100, { is_owner: true, is_admin: true, is_guest: false }],
    ['administrator', 200, { is_owner: false, is_admin: true, is_guest: false }],
    ['moderator', 300, { is_owner: false, is_admin: false, is_guest: false }],
    ['member', 400, { is_owner: false, is_admin: false, is_guest: false }],
    ['guest', 600, { is_owner: false, is_admin: false, is_guest: true }],
  ] as const)('a %s has Zulip role %d and the matching flags', (role, value, flags) => {
    expect(usersAfter([userCreated({ userId: 10, role })]).get('10')).toMatchObject({ role: value, role_name: role, ...flags });
  });

  it('stores bots with Zulip\'s bot type numbers and their owner', () => {
    const docs = usersAfter([
      userCreated({ userId: 1, email: 'desdemona@acme.test', role: 'owner' }),
      userCreated({ userId: 31, email: 'generic-bot@acme.test', isBot: true, botType: 'generic', botOwnerId: 1 }),
      userCreated({ userId: 32, email: 'webhook-bot@acme.test', isBot: true, botType: 'incoming_webhook', botOwnerId: 1 }),
    ]);
    expect(docs.get('31')).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: 1 });
    expect(docs.get('32')).toMatchObject({ is_bot: true, bot_type: 2, bot_owner_id: 1 });
    expect(docs.get('1')).toMatchObject({ is_bot: false, bot_type: null, bot_owner_id: null });
  });

  it.each([
    ['owner', { role: 100, is_owner: true, is_admin: true, is_guest: false }],
    ['administrator', { role: 200, is_owner: false, is_admin: true, is_guest: false }],
    ['moderator', { role: 300, is_owner: false, is_admin: false, is_guest: false }],
    ['guest', { role: 600, is_owner: false, is_admin: false, is_guest: true }],
  ] as const)('a role change to %s updates the role and every flag', (newRole, expected) => {
    const doc = usersAfter([userCreated({ userId: 10, role: 'member' }), userRoleChanged(10, 'member', newRole)]).get('10');
    expect(doc).toMatchObject({ ...expected, role_name: newRole });
  });

  it('a demoted owner loses both owner and admin flags', () => {
    const doc = usersAfter([userCreated({ userId: 1, role: 'owner' }), userRoleChanged(1, 'owner', 'member')]).get('1');
    expect(doc).toMatchObject({ role: 400, is_owner: false, is_admin: false, is_guest: false });
  });

  it('a role change leaves the other fields alone', () => {
    const before = usersAfter([userCreated({ userId: 10 })]).get('10')!;
    const after = usersAfter([userCreated({ userId: 10 }), userRoleChanged(10, 'member', 'moderator')]).get('10')!;
    const { role, role_name, ...rest } = after;
    const { role: _r, role_name: _n, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect({ role, role_name }).toEqual({ role: 300, role_name: 'moderator' });
  });

  it('deactivation and reactivation flip is_active and keep the document', () => {
    expect(usersAfter([userCreated({ userId: 10 }), userDeactivated(10)]).get('10')).toMatchObject({ is_active: false, full_name: 'King Hamlet' });
    expect(usersAfter([userCreated({ userId: 10 }), userDeactivated(10), reactivated(10)]).get('10')).toMatchObject({ is_active: true });
  });

  it('a name change updates full_name', () => {
    expect(usersAfter([userCreated({ userId: 10 }), renamed(10, 'King Hamlet', 'Prince Hamlet')]).get('10')).toMatchObject({ full_name: 'Prince Hamlet' });
  });

  it('keeps one document per user; events about one user leave the others untouched', () => {
    const docs = usersAfter([
      userCreated({ userId: 10, email: 'hamlet@acme.test' }),
      userCreated({ userId: 11, email: 'cordelia@acme.test', fullName: 'Cordelia Lear' }),
      userDeactivated(10),
    ]);
    expect(docs.size).toBe(2);
    expect(docs.get('10')!.is_active).toBe(false);
    expect(docs.get('11')).toMatchObject({ is_active: true, full_name: 'Cordelia Lear' });
  });

  it('ignores changes to a user it has no document for (no half-made document)', () => {
    expect(usersAfter([userDeactivated(77), userRoleChanged(77, 'member', 'owner')]).size).toBe(0);
  });

  it('does not read credential events', () => {
    expect(usersProjection.handles).not.toContain('UserApiKeyRegenerated');
    expect(usersProjection.handles).not.toContain('UserPasswordChanged');
    const doc = usersAfter([userCreated({ userId: 10 }), apiKeyRegenerated(10, 'Z'.repeat(32))]).get('10')!;
    expect(JSON.stringify(doc)).not.toContain('Z'.repeat(32));
    expect(doc).not.toHaveProperty('api_key');
  });

  it('is idempotent under redelivery of the same event', () => {
    const events = recorded([userCreated({ userId: 10 }), userDeactivated(10)], 'users-1');
    const once = replay(usersProjection, events);
    const twice = replay(usersProjection, [...events, events[1]]);
    expect(twice).toEqual(once);
  });

  it('declares the indexed fields the queries filter on', () => {
    expect(usersProjection.collection.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(['realm_id', 'user_id', 'email', 'is_active', 'is_bot']),
    );
  });
});

describe('credentialsProjection', () => {
  it('stores the credential store entries of the key and the hash and the lower-cased email for login lookups (no secret)', () => {
    expect(credentialsAfter([userCreated({ userId: 10, email: 'Hamlet@ACME.test', apiKeyId: 'key-a', passwordId: 'password-a' })]).get('10')).toEqual({
      user_id: 10,
      realm_id: 1,
      email_lower: 'hamlet@acme.test',
      api_key_id: 'key-a',
      password_id: 'password-a',
    });
  });

  it('a regenerated API key replaces the old entry and keeps the password\'s', () => {
    const doc = credentialsAfter([
      userCreated({ userId: 10, apiKeyId: 'key-a', passwordId: 'password-a' }),
      apiKeyRegenerated(10, 'key-b'),
    ]).get('10');
    expect(doc).toMatchObject({ api_key_id: 'key-b', password_id: 'password-a' });
  });

  it('a password change replaces the hash\'s entry and keeps the key\'s', () => {
    const doc = credentialsAfter([userCreated({ userId: 10, apiKeyId: 'key-a', passwordId: null }), passwordChanged(10, 'password-b')]).get('10');
    expect(doc).toMatchObject({ api_key_id: 'key-a', password_id: 'password-b' });
  });

  it('a bot has a key and no password', () => {
    expect(credentialsAfter([userCreated({ userId: 31, isBot: true, botType: 'generic', botOwnerId: 1, passwordId: null })]).get('31')).toMatchObject({
      api_key_id: 'api_key-10',
      password_id: null,
    });
  });

  it('keeps credentials of a deactivated user (authentication decides, not the read model)', () => {
    expect(credentialsProjection.handles).not.toContain('UserDeactivated');
    expect(credentialsAfter([userCreated({ userId: 10 }), userDeactivated(10)]).get('10')).toBeDefined();
  });

  it('ignores a key regenerated for a user it has no document for', () => {
    expect(credentialsAfter([apiKeyRegenerated(77, 'key-b')]).size).toBe(0);
  });

  it('declares a unique index on (realm_id, email_lower)', () => {
    expect(credentialsProjection.collection.unique).toContainEqual(['realm_id', 'email_lower']);
  });
});
