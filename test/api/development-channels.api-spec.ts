import { createHttpAdapter } from '../../apps/api/src/http/http-adapter';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ChannelQueries, RealmQueries, SubscriptionQueries, UserQueries, actorFromUser } from '@app/application';
import { FakeClock, makeTempDir, testConfig } from '@app/testing';
import { AppModule } from '../../apps/api/src/app.module';
import { DevelopmentOrganization } from '../../apps/api/src/development/development-organization';

/** The development organization's channels, as `npm start` creates them on a first start. */
describe('development organization channels', () => {
  let app: NestExpressApplication;
  let dir: ReturnType<typeof makeTempDir>;

  beforeAll(async () => {
    dir = makeTempDir('dev-org-');
    const config = testConfig(dir.path, { env: 'development', devBootstrap: true });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, clock: new FakeClock() })] }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), { logger: false, bodyParser: false });
    await app.init();
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await app.get(DevelopmentOrganization).ensure();
    } finally {
      write.mockRestore();
    }
  });
  afterAll(async () => {
    await app.close();
    dir.remove();
  });

  it('creates general for everyone, design for some and a private core team', async () => {
    const [realm] = await app.get(RealmQueries).list();
    const users = app.get(UserQueries);
    const channels = app.get(ChannelQueries);
    const subscriptions = app.get(SubscriptionQueries);
    const idOf = async (email: string) => (await users.byEmail(realm.id, email))!.user_id;

    const all = await channels.list(realm.id);
    expect(all.map((c) => [c.name, c.invite_only, c.creator_id])).toEqual([
      ['core team', true, await idOf('iago@zulip.com')],
      ['design', false, await idOf('iago@zulip.com')],
      ['general', false, await idOf('iago@zulip.com')],
    ]);
    const general = all.find((c) => c.name === 'general')!;
    expect(await subscriptions.subscriberIds(realm.id, general.stream_id)).toHaveLength(7);
    const core = all.find((c) => c.name === 'core team')!;
    expect(await subscriptions.subscriberIds(realm.id, core.stream_id)).toEqual(
      (await Promise.all(['desdemona@zulip.com', 'iago@zulip.com', 'shiva@zulip.com'].map(idOf))).sort((a, b) => a - b),
    );
    expect(await channels.defaultChannelIds(realm.id)).toEqual([general.stream_id]);
    const hamlet = actorFromUser((await users.byEmail(realm.id, 'hamlet@zulip.com'))!);
    expect((await channels.channelsVisibleTo(hamlet)).map((c) => c.name)).toEqual(['design', 'general']);
  });
});
