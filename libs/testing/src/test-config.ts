import { type AppConfig, loadConfig } from '@app/config';

/** Configuration for an in-process test server: embedded adapters in `dataDir`, quiet logs. */
export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  // Rate limits off: API tests and fuzzers send far more than a person would (tests of the limits set
  // them). The cheapest bcrypt cost: every test creates accounts with passwords.
  return loadConfig(
    { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', RATE_LIMIT_USER_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0', RATE_LIMIT_AUTHENTICATE_REQUESTS: '0', RATE_LIMIT_EMAIL_CHANGE_PER_HOUR: '0', RATE_LIMIT_EMAIL_CHANGE_PER_DAY: '0', PASSWORD_HASH_COST: '4', MESSAGE_RETENTION_INTERVAL_SECONDS: '0' },
    overrides,
  );
}
