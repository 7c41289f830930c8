import { ConfigurationError, loadConfig, loadEnvironment } from './environment';

/** The ConfigurationError thrown for `env` (fails the test if the environment is accepted). */
const configurationErrorOf = (env: Record<string, string | undefined>): ConfigurationError => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be rejected`);
};

describe('configuration from the environment', () => {
  describe('defaults (an empty environment runs the embedded server)', () => {
    it('has Zulip\'s port, a local data directory and embedded adapters', () => {
      expect(loadConfig({})).toMatchObject({
        env: 'development',
        port: 9991,
        host: '127.0.0.1',
        externalUrl: 'http://127.0.0.1:9991',
        dataDir: './data',
        eventStoreDriver: 'embedded',
        readStoreDriver: 'embedded',
        sqliteSynchronous: 'normal',
        esdbUrl: 'esdb://localhost:2113?tls=false',
        mongodbUri: 'mongodb://localhost:27017/?directConnection=true',
        mongodbDb: 'chat',
        redisUrl: 'redis://localhost:6379',
        runProjectors: true,
        projectionWaitTimeoutMs: 10000,
        commandRetryBudgetMs: 5000,
        logLevel: 'info',
        devBootstrap: true,
        maxFileUploadSizeMib: 100,
      });
    });

    it('treats empty variables as unset', () => {
      expect(loadConfig({ PORT: '', DATA_DIR: '', STORAGE_DRIVER: '', RUN_PROJECTORS: '' })).toMatchObject({
        port: 9991, dataDir: './data', eventStoreDriver: 'embedded', runProjectors: true,
      });
    });

    it('ignores variables it does not declare', () => {
      expect(loadConfig({ PATH: '/usr/bin', HOME: '/root', SOMETHING_ELSE: 'x' }).port).toBe(9991);
    });

    it('exposes the raw variables with their defaults too', () => {
      expect(loadEnvironment({})).toMatchObject({ PORT: 9991, DATA_DIR: './data', STORAGE_DRIVER: 'embedded' });
    });
  });

  describe('overrides', () => {
    it('reads numbers, strings and booleans from their text', () => {
      expect(
        loadConfig({
          NODE_ENV: 'production', PORT: '8080', HOST: '0.0.0.0', DATA_DIR: '/var/lib/chat', RUN_PROJECTORS: 'false',
          DEV_BOOTSTRAP: '0', PROJECTION_WAIT_TIMEOUT_MS: '2500', COMMAND_RETRY_BUDGET_MS: '800', LOG_LEVEL: 'warn', SQLITE_SYNCHRONOUS: 'full',
          MAX_FILE_UPLOAD_SIZE_MIB: '100', MONGODB_DB: 'team',
        }),
      ).toMatchObject({
        env: 'production', port: 8080, host: '0.0.0.0', dataDir: '/var/lib/chat', runProjectors: false, devBootstrap: false,
        projectionWaitTimeoutMs: 2500, commandRetryBudgetMs: 800, logLevel: 'warn', sqliteSynchronous: 'full', maxFileUploadSizeMib: 100, mongodbDb: 'team',
      });
      expect(loadConfig({ RUN_PROJECTORS: 'true', DEV_BOOTSTRAP: '1' })).toMatchObject({ runProjectors: true, devBootstrap: true });
    });

    it('STORAGE_DRIVER picks the adapter set for every port', () => {
      expect(loadConfig({ STORAGE_DRIVER: 'servers' })).toMatchObject({ eventStoreDriver: 'servers', readStoreDriver: 'servers' });
    });

    it('each port can be overridden on its own', () => {
      expect(loadConfig({ STORAGE_DRIVER: 'servers', EVENT_STORE_DRIVER: 'embedded' })).toMatchObject({
        eventStoreDriver: 'embedded', readStoreDriver: 'servers',
      });
      expect(loadConfig({ READ_STORE_DRIVER: 'servers' })).toMatchObject({ eventStoreDriver: 'embedded', readStoreDriver: 'servers' });
    });

    it('derives the external URL from host and port, and trims a trailing slash from an explicit one', () => {
      expect(loadConfig({ HOST: '0.0.0.0', PORT: '80' }).externalUrl).toBe('http://localhost:80');
      expect(loadConfig({ HOST: 'chat.internal', PORT: '9000' }).externalUrl).toBe('http://chat.internal:9000');
      expect(loadConfig({ EXTERNAL_URL: 'https://chat.example.com//' }).externalUrl).toBe('https://chat.example.com');
    });

    it('explicit overrides (tests) win over the environment', () => {
      expect(loadConfig({ PORT: '8080', DATA_DIR: '/a' }, { dataDir: '/tmp/x', projectionWaitTimeoutMs: 50 })).toMatchObject({
        port: 8080, dataDir: '/tmp/x', projectionWaitTimeoutMs: 50,
      });
    });

    it('accepts the extreme valid ports', () => {
      expect(loadConfig({ PORT: '0' }).port).toBe(0);
      expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    });
  });

  describe('invalid values fail fast with a ConfigurationError naming the variable', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['STORAGE_DRIVER', 'mongo'],
      ['EVENT_STORE_DRIVER', 'postgres'],
      ['READ_STORE_DRIVER', 'Embedded'],
      ['RUN_PROJECTORS', 'yes'],
      ['DEV_BOOTSTRAP', 'TRUE'],
      ['SQLITE_SYNCHRONOUS', 'off'],
      ['NODE_ENV', 'staging'],
      ['LOG_LEVEL', 'verbose'],
      ['PROJECTION_WAIT_TIMEOUT_MS', '5'],
      ['ARCHIVED_DATA_VACUUMING_DELAY_DAYS', '-1'],
      ['ARCHIVED_DATA_VACUUMING_DELAY_DAYS', 'soon'],
      ['COMMAND_RETRY_BUDGET_MS', '10'],
      ['MAX_FILE_UPLOAD_SIZE_MIB', '0'],
      ['LOG_FORMAT', 'colour'],
      ['METRICS_TOKEN', 'short'],
      ['METRICS_PORT', '65536'],
      ['WORKER_METRICS_PORT', 'x'],
    ])('%s=%s', (variable, value) => {
      const error = configurationErrorOf({ [variable]: value });
      expect(error.message).toContain('Invalid configuration');
      expect(error.message).toContain(`${variable}=`);
      expect(error.message).toContain(value);
    });

    it('lists every bad variable at once, and only those', () => {
      const error = configurationErrorOf({ PORT: 'abc', STORAGE_DRIVER: 'mongo', RUN_PROJECTORS: 'maybe', DATA_DIR: '/ok' });
      const lines = error.message.split('\n').slice(1);
      expect(lines).toHaveLength(3);
      expect(lines.map((line) => line.trim().split('=')[0]).sort()).toEqual(['PORT', 'RUN_PROJECTORS', 'STORAGE_DRIVER']);
      expect(error.message).not.toContain('DATA_DIR');
    });
  });

  describe('erasure (docs/security.md, "How erasure works")', () => {
    it('keeps deleted messages\' keys 30 days by default, as Zulip\'s ARCHIVED_DATA_VACUUMING_DELAY_DAYS; 0 destroys them at once', () => {
      expect(loadConfig({}).archivedDataVacuumingDelayDays).toBe(30);
      expect(loadConfig({ ARCHIVED_DATA_VACUUMING_DELAY_DAYS: '0' }).archivedDataVacuumingDelayDays).toBe(0);
      expect(loadConfig({ ARCHIVED_DATA_VACUUMING_DELAY_DAYS: '7' }).archivedDataVacuumingDelayDays).toBe(7);
    });
  });

  describe('logs and metrics', () => {
    it('default to automatic log format and loopback-only metrics with the worker on 9992', () => {
      expect(loadConfig({})).toMatchObject({ logFormat: 'auto', metrics: { token: null, host: '127.0.0.1', port: 0, workerPort: 9992 } });
    });

    it('read LOG_FORMAT and the METRICS_* variables', () => {
      expect(
        loadConfig({ LOG_FORMAT: 'json', METRICS_TOKEN: 'a-token-of-16-chars', METRICS_PORT: '9464', WORKER_METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }),
      ).toMatchObject({ logFormat: 'json', metrics: { token: 'a-token-of-16-chars', host: '0.0.0.0', port: 9464, workerPort: 0 } });
    });
  });

  describe('outgoing email (Django\'s and Zulip\'s EMAIL_* settings)', () => {
    it('has no SMTP server by default: submission port, STARTTLS required, no login, noreply@ the external host', () => {
      expect(loadConfig({}).email).toEqual({ host: null, port: 587, user: null, password: null, useTls: true, noreplyAddress: 'noreply@127.0.0.1' });
      expect(loadConfig({ EXTERNAL_URL: 'https://chat.example.com:8443/' }).email.noreplyAddress).toBe('noreply@chat.example.com');
    });

    it('reads the SMTP server, its login and the sender', () => {
      expect(
        loadConfig({ EMAIL_HOST: 'smtp.example.com', EMAIL_PORT: '2525', EMAIL_USE_TLS: 'false', EMAIL_HOST_USER: 'chat', EMAIL_HOST_PASSWORD: 'pw', NOREPLY_EMAIL_ADDRESS: 'no-reply@example.com' }).email,
      ).toEqual({ host: 'smtp.example.com', port: 2525, user: 'chat', password: 'pw', useTls: false, noreplyAddress: 'no-reply@example.com' });
    });

    it('refuses a bad port or TLS flag, naming the variable', () => {
      expect(configurationErrorOf({ EMAIL_PORT: '70000' }).message).toContain('EMAIL_PORT');
      expect(configurationErrorOf({ EMAIL_USE_TLS: 'maybe' }).message).toContain('EMAIL_USE_TLS');
    });
  });
});
