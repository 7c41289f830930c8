import { type AppConfig, loadConfig } from '@app/config';

/** Configuration for an in-process test server: embedded adapters in `dataDir`, quiet logs. */
export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  // Rate limits off: API tests and fuzzers send far more than a person would. Tests of the limits set them.
  return loadConfig(
    { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', RATE_LIMIT_USER_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0' },
    overrides,
  );
}
