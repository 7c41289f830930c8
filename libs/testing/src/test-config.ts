import { type AppConfig, loadConfig } from '@app/config';

/** Configuration for an in-process test server: embedded adapters in `dataDir`, quiet logs. */
export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' }, overrides);
}
