import { createHash } from 'node:crypto';
import { CREDENTIAL_STORE, type CredentialStorePort, invitationKeyEntryId } from '@app/application';
import { MAX_INVITATION_VALIDITY_MINUTES } from '@app/domain';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { eventually, TestSmtpServer } from '../support/smtp-test-server';

/**
 * Invitations (≈ zerver/tests/test_invite.py) through the real HTTP stack: POST/GET/DELETE
 * /invites, resend, multiuse links, the permissions and Zulip's errors, the mails with their
 * `/join/<key>/` links (read from the development mail folder), `invites_changed` events, and the
 * keys kept out of the log.
 */
const INVITES = '/api/v1/invites';
const LINK = /\/join\/([a-z0-9]{24})\//;

describe('invitations', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { refused, register, events } = personaHelpers(() => api);
  const invite = (who: string, params: Record<string, unknown>) => api.as(who).post(INVITES, { stream_ids: '[]', ...params });
  const list = async (who = 'iago') => expectSuccess(await api.as(who).get(INVITES)).invites as Record<string, any>[];
  const keyMailedTo = async (to: string, count = 1): Promise<string> => {
    const mails = await api.mailsTo(to, { kind: 'invitation', count });
    const key = LINK.exec(mails.at(-1)?.text ?? '')?.[1];
    if (!key) throw new Error(`no invitation link mailed to ${to}`);
    return key;
  };

  describe('POST /invites', () => {
    it('invites each address, mails it a /join/<key>/ link, and lists the invitations', async () => {
      expectSuccess(await invite('hamlet', { invitee_emails: 'alice@example.net, Bob <bob@example.net>\ncarol@example.net', notify_referrer_on_join: 'false' }));
      const invites = await list('hamlet');
      expect(invites.map((i) => i.email)).toEqual(['alice@example.net', 'bob@example.net', 'carol@example.net']);
      expect(invites[0]).toEqual({
        email: 'alice@example.net',
        invited_by_user_id: api.user('hamlet').userId,
        invited: expect.any(Number),
        expiry_date: expect.any(Number),
        id: expect.any(Number),
        invited_as: 400,
        is_multiuse: false,
        notify_referrer_on_join: false,
      });
      // INVITATION_LINK_VALIDITY_DAYS: ten days.
      expect(invites[0].expiry_date - invites[0].invited).toBe(10 * 86400);
      const [mail] = await api.mailsTo('bob@example.net', { kind: 'invitation' });
      expect(mail.subject).toBe('King Hamlet invited you to join ' + mail.subject.split(' invited you to join ')[1]);
      expect(mail.text).toContain('hamlet@acme.test');
      expect(await keyMailedTo('carol@example.net')).toMatch(/^[a-z0-9]{24}$/);
    });

    it('never writes the key to the log, only its digest', async () => {
      await api.markEvents();
      expectSuccess(await invite('iago', { invitee_emails: 'dora@example.net' }));
      const key = await keyMailedTo('dora@example.net');
      const logged = JSON.stringify(await api.newEvents(), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      expect(logged).not.toContain(key);
      expect(logged).toContain(createHash('sha256').update(key).digest('hex'));
    });

    it('takes invite_expires_in_minutes (null: never) and invite_as', async () => {
      expectSuccess(await invite('iago', { invitee_emails: 'e1@example.net', invite_expires_in_minutes: '60', invite_as: '300' }));
      expectSuccess(await invite('iago', { invitee_emails: 'e2@example.net', invite_expires_in_minutes: 'null' }));
      const [first, second] = await list();
      expect(first.expiry_date - first.invited).toBe(3600);
      expect(first.invited_as).toBe(300);
      expect(second.expiry_date).toBeNull();
    });

    it('refuses an invite_expires_in_minutes that is not a positive whole number of minutes or too long', async () => {
      await api.markEvents();
      for (const bad of ['0', '-5', String(MAX_INVITATION_VALIDITY_MINUTES + 1)]) {
        await refused(await invite('iago', { invitee_emails: 'x@example.net', invite_expires_in_minutes: bad }), 'Invalid invite_expires_in_minutes');
        await refused(await api.as('iago').post(`${INVITES}/multiuse`, { invite_expires_in_minutes: bad }), 'Invalid invite_expires_in_minutes');
      }
      await refused(await invite('iago', { invitee_emails: 'x@example.net', invite_expires_in_minutes: '1.5' }), 'invite_expires_in_minutes is not an integer');
      await refused(await invite('iago', { invitee_emails: 'x@example.net', invite_expires_in_minutes: '1e300' }), 'invite_expires_in_minutes is too large');
      expectSuccess(await invite('iago', { invitee_emails: 'x@example.net', invite_expires_in_minutes: String(MAX_INVITATION_VALIDITY_MINUTES) }));
    });

    it('invites an address written twice, in any case, once', async () => {
      expectSuccess(await invite('iago', { invitee_emails: 'Twice@Example.net, twice@example.net\nTWICE@EXAMPLE.NET' }));
      expect((await list()).map((i) => i.email)).toEqual(['Twice@Example.net']);
      expect(await api.mailsTo('Twice@Example.net', { kind: 'invitation' })).toHaveLength(1);
    });

    it('skips addresses that already have an account, inviting the others (INVITATION_FAILED, sent_invitations)', async () => {
      const body = expectError(
        await invite('iago', { invitee_emails: 'hamlet@acme.test, new@example.net' }),
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        { code: 'INVITATION_FAILED' },
      );
      expect(body).toMatchObject({ errors: [['hamlet@acme.test', 'Already has an account.', false]], sent_invitations: true, license_limit_reached: false, daily_limit_reached: false });
      expect((await list()).map((i) => i.email)).toEqual(['new@example.net']);
    });

    it('refuses, inviting nobody, when an address is malformed or everyone already has an account', async () => {
      await api.markEvents();
      const invalid = await refused(await invite('iago', { invitee_emails: 'nope, fine@example.net, hamlet@acme.test' }), "Some emails did not validate, so we didn't send any invitations.", { code: 'INVITATION_FAILED' });
      expect(invalid).toMatchObject({ errors: [['nope', 'Invalid address.', false], ['hamlet@acme.test', 'Already has an account.', false]], sent_invitations: false });
      const nobody = await refused(await invite('iago', { invitee_emails: 'hamlet@acme.test' }), "We weren't able to invite anyone.", { code: 'INVITATION_FAILED' });
      expect(nobody.sent_invitations).toBe(false);
      await refused(await invite('iago', { invitee_emails: '' }), 'You must specify at least one email address.');
      expect(await list()).toEqual([]);
    });

    it('checks who may invite whom: only administrators invite moderators and administrators, only owners owners', async () => {
      await api.markEvents();
      await refused(await invite('hamlet', { invitee_emails: 'x@example.net', invite_as: '200' }), 'Must be an organization administrator');
      await refused(await invite('shiva', { invitee_emails: 'x@example.net', invite_as: '300' }), 'Must be an organization administrator');
      await refused(await invite('iago', { invitee_emails: 'x@example.net', invite_as: '100' }), 'Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
      await refused(await invite('iago', { invitee_emails: 'x@example.net', invite_as: '500' }), 'Invalid invite_as');
      await refused(await invite('polonius', { invitee_emails: 'x@example.net' }), 'Not allowed for guest users');
      expectSuccess(await invite('desdemona', { invitee_emails: 'owner@example.net', invite_as: '100' }));
      expectSuccess(await invite('iago', { invitee_emails: 'admin@example.net', invite_as: '200' }));
      expectSuccess(await invite('hamlet', { invitee_emails: 'guest@example.net', invite_as: '600' }));
    });

    it("follows the organization's can_invite_users_group", async () => {
      const admins = api.systemGroupId('role:administrators');
      // Owners only (the owner-only organization settings).
      expectSuccess(await api.as('desdemona').patch('/api/v1/realm', { can_invite_users_group: JSON.stringify({ new: admins }) }));
      const state = await register('hamlet', { fetch_event_types: ['realm', 'realm_user'] });
      expect(state.realm_can_invite_users_group).toBe(admins);
      expect(state.can_invite_others_to_realm).toBe(false);
      await api.markEvents();
      await refused(await invite('hamlet', { invitee_emails: 'x@example.net' }), 'Insufficient permission');
      expectSuccess(await invite('iago', { invitee_emails: 'x@example.net' }));
      expectError(await api.as('desdemona').patch('/api/v1/realm', { can_invite_users_group: JSON.stringify({ new: api.systemGroupId('role:everyone') }) }), "'can_invite_users_group' setting cannot be set to 'role:everyone' group.");
    });

    it('checks the channels and groups of the invitation', async () => {
      await api.markEvents();
      await refused(await invite('iago', { invitee_emails: 'x@example.net', stream_ids: '[99999]' }), 'Invalid channel ID 99999. No invites were sent.');
      await refused(await invite('iago', { invitee_emails: 'x@example.net', group_ids: '[99999]' }), 'Invalid user group');
      await refused(await invite('iago', { invitee_emails: 'x@example.net', stream_ids: '"x"' }), 'stream_ids is not a list');
    });

    it("names a group only with that group's permission to add members (can_add_members_group, can_manage_group, can_manage_all_groups)", async () => {
      const nobody = api.systemGroupId('role:nobody');
      const crew = expectSuccess(
        await api.as('iago').post('/api/v1/user_groups/create', {
          name: 'crew', description: 'Crew', members: JSON.stringify([api.user('hamlet').userId]),
          can_add_members_group: JSON.stringify({ direct_members: [api.user('cordelia').userId], direct_subgroups: [] }),
          can_manage_group: JSON.stringify(nobody),
        }),
      ).group_id as number;
      await api.markEvents();
      // A member of the group without the permission may not; one with it may, though not a member.
      await refused(await invite('hamlet', { invitee_emails: 'x@example.net', group_ids: JSON.stringify([crew]) }), 'Insufficient permission');
      expectSuccess(await invite('cordelia', { invitee_emails: 'y@example.net', group_ids: JSON.stringify([crew]) }));
      // Not administrators as such: can_manage_all_groups is role:owners by default (Zulip's).
      await api.markEvents();
      await refused(await invite('iago', { invitee_emails: 'z@example.net', group_ids: JSON.stringify([crew]) }), 'Insufficient permission');
      await refused(await api.as('iago').post(`${INVITES}/multiuse`, { group_ids: JSON.stringify([crew]) }), 'Insufficient permission');
      expectSuccess(await invite('desdemona', { invitee_emails: 'z@example.net', group_ids: JSON.stringify([crew]) }));
      expectSuccess(await api.as('desdemona').post(`${INVITES}/multiuse`, { group_ids: JSON.stringify([crew]) }));
    });

    it('sends invites_changed to the administrators and the inviter', async () => {
      const queues = Object.fromEntries(await Promise.all(['iago', 'desdemona', 'hamlet', 'cordelia'].map(async (who) => [who, (await register(who, { event_types: ['invites_changed'] })).queue_id] as const)));
      expectSuccess(await invite('hamlet', { invitee_emails: 'x@example.net' }));
      for (const who of ['iago', 'desdemona', 'hamlet']) {
        expect((await events(who, queues[who])).filter((e) => e.type === 'invites_changed')).toHaveLength(1);
      }
      expect((await events('cordelia', queues.cordelia)).filter((e) => e.type === 'invites_changed')).toEqual([]);
    });
  });

  describe('GET /invites', () => {
    it("shows members their own invitations, administrators everyone's", async () => {
      expectSuccess(await invite('hamlet', { invitee_emails: 'h@example.net' }));
      expectSuccess(await invite('iago', { invitee_emails: 'i@example.net' }));
      expect((await list('hamlet')).map((i) => i.email)).toEqual(['h@example.net']);
      expect((await list('iago')).map((i) => i.email)).toEqual(['h@example.net', 'i@example.net']);
      expect((await list('cordelia')).map((i) => i.email)).toEqual([]);
      expectError(await api.as('polonius').get(INVITES), 'Not allowed for guest users');
    });
  });

  describe('DELETE /invites/{id} and POST /invites/{id}/resend', () => {
    const invitationOf = async (who: string, email: string) => {
      expectSuccess(await invite(who, { invitee_emails: email }));
      return (await list('iago')).find((i) => i.email === email)!.id as number;
    };

    it('lets the inviter and administrators revoke; a revoked link stops working', async () => {
      const id = await invitationOf('hamlet', 'r@example.net');
      const key = await keyMailedTo('r@example.net');
      await api.markEvents();
      await refused(await api.as('cordelia').delete(`${INVITES}/${id}`), 'Must be an organization administrator');
      expectSuccess(await api.as('hamlet').delete(`${INVITES}/${id}`));
      expect(await list('iago')).toEqual([]);
      expectError(await api.as('iago').delete(`${INVITES}/${id}`), 'No such invitation');
      expectError(await api.as('iago').delete(`${INVITES}/99999`), 'No such invitation');
      expect((await api.http.get(`/join/${key}/`)).status).toBe(404);
    });

    it("needs an owner for an owner's invitation made by someone else", async () => {
      expectSuccess(await invite('desdemona', { invitee_emails: 'o@example.net', invite_as: '100' }));
      const id = (await list('iago')).find((i) => i.email === 'o@example.net')!.id as number;
      await api.markEvents();
      await refused(await api.as('iago').delete(`${INVITES}/${id}`), 'Must be an organization owner');
      await refused(await api.as('iago').post(`${INVITES}/${id}/resend`), 'Must be an organization owner');
      expectSuccess(await api.as('desdemona').post(`${INVITES}/${id}/resend`));
    });

    it('resends the same link (do_resend_user_invite_email)', async () => {
      const id = await invitationOf('hamlet', 's@example.net');
      const first = await keyMailedTo('s@example.net');
      expectSuccess(await api.as('hamlet').post(`${INVITES}/${id}/resend`));
      expect(await keyMailedTo('s@example.net', 2)).toBe(first);
      expect((await api.http.get(`/join/${first}/`)).status).toBe(200);
      expectError(await api.as('cordelia').post(`${INVITES}/${id}/resend`), 'Must be an organization administrator');
      expectError(await api.as('hamlet').post(`${INVITES}/99999/resend`), 'No such invitation');
    });

    it('forgets the sealed key of a revoked or used invitation', async () => {
      const store = api.app.get<CredentialStorePort>(CREDENTIAL_STORE);
      const revoked = await invitationOf('hamlet', 'gone@example.net');
      const used = await invitationOf('hamlet', 'used@example.net');
      expect(await store.get(invitationKeyEntryId(api.realmId, revoked))).not.toBeNull();
      expectSuccess(await api.as('hamlet').delete(`${INVITES}/${revoked}`));
      expect(await store.get(invitationKeyEntryId(api.realmId, revoked))).toBeNull();
      const key = await keyMailedTo('used@example.net');
      expect((await api.http.post(`/join/${key}/`).type('form').send({ full_name: 'Used Person', password: 'correct horse battery staple' })).status).toBe(200);
      expect(await store.get(invitationKeyEntryId(api.realmId, used))).toBeNull();
      await api.markEvents();
      await refused(await api.as('hamlet').post(`${INVITES}/${used}/resend`), 'No such invitation');
    });

    it('never lets a sign-up through once the invitation is revoked, even at the same moment', async () => {
      for (let round = 0; round < 3; round++) {
        const email = `race${round}@example.net`;
        const id = await invitationOf('hamlet', email);
        const key = await keyMailedTo(email);
        const [signUp, revoke] = await Promise.all([
          api.http.post(`/join/${key}/`).type('form').send({ full_name: 'Racing Person', password: 'correct horse battery staple' }),
          api.as('hamlet').delete(`${INVITES}/${id}`),
        ]);
        const account = (expectSuccess(await api.as('iago').get('/api/v1/users')).members as { email: string; delivery_email?: string }[]).some(
          (u) => u.delivery_email === email || u.email === email,
        );
        if (revoke.body.result === 'success') {
          expect(signUp.status).toBe(404);
          expect(account).toBe(false);
        } else {
          expect(revoke.body.msg).toBe('No such invitation');
          expect(signUp.status).toBe(200);
          expect(account).toBe(true);
        }
      }
    });
  });

  describe('multiuse links', () => {
    it('are made by administrators (create_multiuse_invite_group), listed, and revoked', async () => {
      const link = expectSuccess(await api.as('iago').post(`${INVITES}/multiuse`, { invite_as: '600', invite_expires_in_minutes: '120' })).invite_link as string;
      expect(link).toMatch(/^http.*\/join\/[a-z0-9]{24}\/$/);
      const [multiuse] = await list('iago');
      expect(multiuse).toEqual({ invited_by_user_id: api.user('iago').userId, invited: expect.any(Number), expiry_date: multiuse.invited + 7200, id: expect.any(Number), link_url: link, invited_as: 600, is_multiuse: true });
      // Shown again to whoever may manage it: administrators, not other members.
      expect((await list('desdemona'))[0].link_url).toBe(link);
      expect(await list('hamlet')).toEqual([]);
      await api.markEvents();
      await refused(await api.as('hamlet').post(`${INVITES}/multiuse`, {}), 'Insufficient permission');
      await refused(await api.as('hamlet').delete(`${INVITES}/multiuse/${multiuse.id}`), 'Must be an organization administrator');
      expectSuccess(await api.as('desdemona').delete(`${INVITES}/multiuse/${multiuse.id}`));
      expectError(await api.as('desdemona').delete(`${INVITES}/multiuse/${multiuse.id}`), 'Invitation has already been revoked');
      expectError(await api.as('desdemona').delete(`${INVITES}/multiuse/99999`), 'No such invitation');
      expect(await list('iago')).toEqual([]);
      expect((await api.http.get(new URL(link).pathname)).status).toBe(404);
    });

    it('are not email invitations, nor the other way round', async () => {
      const link = expectSuccess(await api.as('iago').post(`${INVITES}/multiuse`, {})).invite_link as string;
      expect(link).toBeTruthy();
      const [multiuse] = await list('iago');
      expectError(await api.as('iago').delete(`${INVITES}/${multiuse.id}`), 'No such invitation');
      expectSuccess(await invite('iago', { invitee_emails: 'z@example.net' }));
      const email = (await list('iago')).find((i) => !i.is_multiuse)!;
      expectError(await api.as('iago').delete(`${INVITES}/multiuse/${email.id}`), 'No such invitation');
    });
  });
  describe('the sign-up page, /join/<key>/', () => {
    const form = (key: string, fields: Record<string, string>) => api.http.post(`/join/${key}/`).type('form').send(fields);
    const login = (username: string, password: string) => api.http.post('/api/v1/fetch_api_key').type('form').send({ username, password });

    it('shows an accessible form that works without JavaScript, then creates the account with the invitation\'s role, channels and groups', async () => {
      expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'Denmark' }]) }));
      const denmark = await api.channelId('Denmark', 'iago');
      const group = expectSuccess(await api.as('iago').post('/api/v1/user_groups/create', { name: 'newcomers', description: 'New', members: JSON.stringify([api.user('iago').userId]) })).group_id as number;
      expectSuccess(await invite('iago', { invitee_emails: 'newbie@example.net', invite_as: '300', stream_ids: JSON.stringify([denmark]), group_ids: JSON.stringify([group]) }));
      const key = await keyMailedTo('newbie@example.net');
      const page = await api.http.get(`/join/${key}`);
      expect(page.status).toBe(200);
      expect(page.type).toBe('text/html');
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain(`<form method="post" action="/join/${key}/">`);
      expect(page.text).toContain('<label for="full_name">Full name</label>');
      expect(page.text).toContain('<label for="password">Password</label>');
      expect(page.text).toContain('newbie@example.net');
      expect(page.text).not.toContain('<script');

      const done = await form(key, { full_name: 'New Bie', password: 'correct horse battery staple' });
      expect(done.status).toBe(200);
      expect(done.text).toContain('Your account is ready');
      expect(done.text).toContain('newbie@example.net');
      expect(done.text).toMatch(/<code>http:\/\/[^<]+<\/code>/);

      const { api_key: apiKey, user_id: userId } = expectSuccess(await login('newbie@example.net', 'correct horse battery staple'));
      const me = expectSuccess(await api.http.get('/api/v1/users/me').auth('newbie@example.net', apiKey));
      expect(me).toMatchObject({ full_name: 'New Bie', role: 300 });
      const subs = expectSuccess(await api.http.get('/api/v1/users/me/subscriptions').auth('newbie@example.net', apiKey)).subscriptions as { stream_id: number }[];
      expect(subs.map((s) => s.stream_id)).toEqual([denmark]);
      const members = expectSuccess(await api.as('iago').get(`/api/v1/user_groups/${group}/members`)).members as number[];
      expect(members).toContain(userId);
      // Used: the link is spent, the invitation gone from the list.
      expect(await list('iago')).toEqual([]);
      const used = await api.http.get(`/join/${key}/`);
      expect(used.status).toBe(404);
      expect(used.text).toContain('The confirmation link has expired or been deactivated.');
      expect((await form(key, { full_name: 'Again', password: 'correct horse battery staple' })).status).toBe(404);
    });

    it("joins the invitation's private channels, and the default channels only when asked", async () => {
      expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'secret' }]), invite_only: 'true' }));
      expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'lobby' }]) }));
      const secret = await api.channelId('secret', 'iago');
      const lobby = await api.channelId('lobby', 'iago');
      expectSuccess(await api.as('iago').post('/api/v1/default_streams', { stream_id: String(lobby) }));
      expectSuccess(await invite('iago', { invitee_emails: 'private@example.net', stream_ids: JSON.stringify([secret]), include_realm_default_subscriptions: 'true' }));
      expect((await form(await keyMailedTo('private@example.net'), { full_name: 'Private Person', password: 'correct horse battery staple' })).status).toBe(200);
      const { api_key: apiKey } = expectSuccess(await login('private@example.net', 'correct horse battery staple'));
      const subs = expectSuccess(await api.http.get('/api/v1/users/me/subscriptions').auth('private@example.net', apiKey)).subscriptions as { stream_id: number }[];
      expect(subs.map((s) => s.stream_id).sort((a, b) => a - b)).toEqual([secret, lobby].sort((a, b) => a - b));
    });

    it('tells the inviter when asked to (notify_referrer_on_join)', async () => {
      expectSuccess(await invite('hamlet', { invitee_emails: 'told@example.net' }));
      expect((await form(await keyMailedTo('told@example.net'), { full_name: 'Told Person', password: 'correct horse battery staple' })).status).toBe(200);
      const messages = expectSuccess(await api.as('hamlet').get('/api/v1/messages').query({ anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]) })).messages as { content: string }[];
      expect(messages.at(-1)?.content).toMatch(/Told Person.*accepted your invitation to join Zulip!/);
    });

    it('gives a refused form back with the reason announced, and creates nothing', async () => {
      expectSuccess(await invite('iago', { invitee_emails: 'weak@example.net' }));
      const key = await keyMailedTo('weak@example.net');
      await api.markEvents();
      const blank = await form(key, { full_name: ' ', password: 'correct horse battery staple' });
      expect(blank.status).toBe(400);
      expect(blank.text).toContain('role="alert"');
      const short = await form(key, { full_name: 'Ok Name', password: '' });
      expect(short.status).toBe(400);
      expect(short.text).toContain('value="Ok Name"');
      expect(await api.newEvents()).toEqual([]);
      expect((await api.http.get(`/join/${key}/`)).status).toBe(200);
    });

    it('answers unknown and expired links with a clear 404 page', async () => {
      const unknown = await api.http.get('/join/abcdefghijklmnopqrstuvwx/');
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('Whoops. The confirmation link does not exist.');
      expectSuccess(await invite('iago', { invitee_emails: 'late@example.net', invite_expires_in_minutes: '60' }));
      const key = await keyMailedTo('late@example.net');
      expect((await api.http.get(`/join/${key}/`)).status).toBe(200);
      api.clock.advance(60 * 60_000 + 1000);
      const expired = await api.http.get(`/join/${key}/`);
      expect(expired.status).toBe(404);
      expect(expired.text).toContain('The confirmation link has expired or been deactivated.');
    });

    it('serves a multiuse link to several people, each giving an address', async () => {
      const link = expectSuccess(await api.as('iago').post(`${INVITES}/multiuse`, { invite_as: '600' })).invite_link as string;
      const key = LINK.exec(link)![1];
      const page = await api.http.get(`/join/${key}/`);
      expect(page.text).toContain('<label for="email">Email address</label>');
      for (const who of ['one', 'two']) {
        const done = await form(key, { email: `${who}@example.net`, full_name: `Person ${who}`, password: 'correct horse battery staple' });
        expect(done.status).toBe(200);
      }
      const taken = await form(key, { email: 'hamlet@acme.test', full_name: 'Not Hamlet', password: 'correct horse battery staple' });
      expect(taken.status).toBe(400);
      expect(taken.text).toContain('Already has an account.');
      const { api_key: apiKey } = expectSuccess(await login('two@example.net', 'correct horse battery staple'));
      expect(expectSuccess(await api.http.get('/api/v1/users/me').auth('two@example.net', apiKey)).role).toBe(600);
      expect((await list('iago')).filter((i) => i.is_multiuse)).toHaveLength(1);
    });
  });
});

describe('invitation mails through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  let api: ApiTestClient;
  beforeEach(async () => {
    smtp = await TestSmtpServer.start();
    api = await ApiTestClient.start({ config: { email: smtp.emailConfig(), mailRetry: { firstDelayMs: 50, maxDelayMs: 200, maxAttempts: 6, pollMs: 100 }, externalUrl: 'http://127.0.0.1:9991' } });
  });
  afterEach(async () => {
    await api.close();
    await smtp.stop();
  });

  it("mails the inviter's invitation with its link; the link opens the sign-up page, and the account signs in", async () => {
    expectSuccess(await api.as('hamlet').post(INVITES, { invitee_emails: 'smtp-invitee@example.net', stream_ids: '[]' }));
    const mail = await eventually(() => smtp.received.find((m) => m.to.includes('smtp-invitee@example.net')), 10_000, 'the invitation mail');
    expect(mail).toMatchObject({ from: 'noreply@acme.test', subject: 'King Hamlet invited you to join Acme Corp' });
    expect(mail.raw).toMatch(/^From: "?King Hamlet \(via Zulip\)"? <noreply@acme\.test>$/m);
    expect(mail.body).toContain('King Hamlet (hamlet@acme.test) has invited you to join Zulip');
    const link = /(http:\/\/127\.0\.0\.1:9991\/join\/([a-z0-9]{24})\/)/.exec(mail.body);
    expect(link).not.toBeNull();
    const path = new URL(link![1]).pathname;
    expect((await api.http.get(path)).status).toBe(200);
    const done = await api.http.post(path).type('form').send({ full_name: 'Smtp Invitee', password: 'correct horse battery staple' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('<code>http://127.0.0.1:9991</code>');
    expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'smtp-invitee@example.net', password: 'correct horse battery staple' }));
  });
});
