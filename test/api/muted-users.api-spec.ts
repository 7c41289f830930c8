import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, MutedUserQueries } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_muted_users.py: POST/DELETE /users/me/muted_users/{muted_user_id}. */
describe('muted users', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, refused: expectRefused } = personaHelpers(() => api);
  const url = (userId: number) => `/api/v1/users/me/muted_users/${userId}`;
  const mutedBy = (who: string) => api.app.get(MutedUserQueries).mutedUsers(id(who));

  it('mutes and unmutes a user; the list carries when', async () => {
    api.clock.set('2026-04-05T06:07:08.900Z');
    expectSuccess(await api.as('hamlet').post(url(id('cordelia'))));
    expect(await mutedBy('hamlet')).toEqual([{ id: id('cordelia'), timestamp: Math.floor(Date.parse('2026-04-05T06:07:08.900Z') / 1000) }]);
    expect(await mutedBy('cordelia')).toEqual([]);
    expectSuccess(await api.as('hamlet').delete(url(id('cordelia'))));
    expect(await mutedBy('hamlet')).toEqual([]);
  });

  it('takes the request as zulip-js sends it (multipart POST, DELETE with a query string)', async () => {
    const body = expectSuccess(await api.as('hamlet').postMultipart(url(id('iago'))));
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    expectSuccess(await api.as('hamlet').delete(url(id('iago'))));
  });

  it('mutes bots and deactivated users', async () => {
    const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Helper', shortName: 'helper', ownerId: id('iago') }));
    expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('cordelia')}`));
    expectSuccess(await api.as('hamlet').post(url(bot.userId)));
    expectSuccess(await api.as('hamlet').post(url(id('cordelia'))));
    expect((await mutedBy('hamlet')).map((m) => m.id)).toEqual([bot.userId, id('cordelia')]);
  });

  it('refuses to mute oneself, nonexistent users and users already muted, changing nothing', async () => {
    await expectRefused(await api.as('hamlet').post(url(id('hamlet'))), 'Cannot mute self', { code: 'BAD_REQUEST' });
    await expectRefused(await api.as('hamlet').post(url(99999)), 'No such user', { code: 'BAD_REQUEST' });
    expectSuccess(await api.as('hamlet').post(url(id('cordelia'))));
    await api.markEvents();
    await expectRefused(await api.as('hamlet').post(url(id('cordelia'))), 'User already muted');
    expect(await mutedBy('hamlet')).toHaveLength(1);
  });

  it('refuses to unmute nonexistent users and users not muted, changing nothing', async () => {
    await expectRefused(await api.as('hamlet').delete(url(99999)), 'No such user', { code: 'BAD_REQUEST' });
    await expectRefused(await api.as('hamlet').delete(url(id('cordelia'))), 'User is not muted', { code: 'BAD_REQUEST' });
    await expectRefused(await api.as('hamlet').delete(url(id('hamlet'))), 'User is not muted');
    expectSuccess(await api.as('hamlet').post(url(id('cordelia'))));
    expectSuccess(await api.as('hamlet').delete(url(id('cordelia'))));
    await api.markEvents();
    await expectRefused(await api.as('hamlet').delete(url(id('cordelia'))), 'User is not muted');
  });

  it('treats an id that is not a number as an unknown route', async () =>
    expectError(await api.as('hamlet').post('/api/v1/users/me/muted_users/cordelia'), 'Not Found', { status: 404 }));
});
