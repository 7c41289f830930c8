import { NestFactory } from '@nestjs/core';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { personaHelpers, testConfig } from '@app/testing';
import { CliModule } from '../../apps/cli/src/cli.module';
import { buildProgram } from '../../apps/cli/src/commands';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * `npm run cli -- retention` beside a running server (its own application context on the server's
 * data directory, as a separate process would be), on the server's fake clock.
 */
describe('CLI retention', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel, createChannel } = personaHelpers(() => api);

  const cli = async (argv: string[]): Promise<string[]> => {
    const out: string[] = [];
    const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    const program = buildProgram(async (fn) => {
      const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dataDir), clock: api.clock }), { logger: false });
      await app.init();
      try {
        return await fn(app);
      } finally {
        await app.close();
      }
    }, { out: (l) => out.push(l), err: () => undefined });
    await program.parseAsync(['node', 'cli', ...argv]);
    return out;
  };

  it('deletes what has expired and prints how many per organization and channel', async () => {
    const denmark = await createChannel('hamlet', 'Denmark', { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
    await createChannel('hamlet', 'Verona', { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
    const old = [
      await sendToChannel('hamlet', 'Denmark', 'a', 'one'),
      await sendToChannel('hamlet', 'Denmark', 'b', 'two'),
      await sendToChannel('hamlet', 'Verona', 'a', 'three'),
      expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'four' })).id as number,
    ];
    api.clock.advance(40 * 86_400_000);
    const fresh = await sendToChannel('hamlet', 'Denmark', 'a', 'five');
    expectSuccess(await api.as('desdemona').patch('/api/v1/realm', { message_retention_days: 30 }));
    expectSuccess(await api.as('desdemona').patch(`/api/v1/streams/${denmark}`, { message_retention_days: 10 }));

    expect(await cli(['retention', '--batch-size', '2'])).toEqual([
      'acme: deleted 4 messages',
      `  #Denmark (channel ${denmark}): 2`,
      `  #Verona (channel ${await api.channelId('Verona')}): 1`,
      '  direct messages: 1',
      'Deleted 4 expired messages.',
    ]);
    for (const messageId of old) expectError(await api.as('cordelia').get(`/api/v1/messages/${messageId}`), 'Invalid message(s)');
    expectSuccess(await api.as('cordelia').get(`/api/v1/messages/${fresh}`));

    expect(await cli(['retention'])).toEqual(['Deleted 0 expired messages.']);
    expect(JSON.parse((await cli(['retention', '--json'])).join('\n'))).toEqual({ deleted: 0, realms: [] });
  });

  it('refuses a batch size that is not a positive integer', async () => {
    await expect(cli(['retention', '--batch-size', '0'])).rejects.toThrow('expected a positive integer');
  });
});
