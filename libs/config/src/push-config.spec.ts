import { ConfigurationError, loadConfig } from './environment';

describe('PUSH_NOTIFICATIONS_BOUNCER_URL', () => {
  it('is unset by default: no push service', () => expect(loadConfig({}).pushNotificationsBouncerUrl).toBeNull());

  it('takes an http(s) URL', () =>
    expect(loadConfig({ PUSH_NOTIFICATIONS_BOUNCER_URL: 'https://push.zulipchat.com' }).pushNotificationsBouncerUrl).toBe('https://push.zulipchat.com'));

  it('refuses anything else at boot', () => {
    expect(() => loadConfig({ PUSH_NOTIFICATIONS_BOUNCER_URL: 'push.zulipchat.com' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ PUSH_NOTIFICATIONS_BOUNCER_URL: 'ftp://push.example.com' })).toThrow(/PUSH_NOTIFICATIONS_BOUNCER_URL/);
  });
});
