import { botEmail, botEmailDomain, checkShortName, InvalidEmailError, isValidEmailAddress, isValidEmailDomain } from '@app/domain';

describe('users rules: bot addresses and email checks', () => {
  describe('botEmailDomain (Realm.get_bot_domain / get_fake_email_domain)', () => {
    it('is the organization\'s host, <string_id>.<external host>', () =>
      expect(botEmailDomain('acme', 'https://chat.example.com')).toBe('acme.chat.example.com'));

    it('falls back to the external host name without its port (Zulip\'s default FAKE_EMAIL_DOMAIN)', () => {
      expect(botEmailDomain('acme', 'https://chat.example.com:8443')).toBe('chat.example.com');
      expect(botEmailDomain('zulip', 'http://localhost:9991')).toBe('localhost');
    });

    it('uses localhost for IP-literal hosts, where Zulip refuses to create bots', () =>
      expect(botEmailDomain('acme', 'http://127.0.0.1:9991')).toBe('localhost'));

    it('is the external host itself for the root organization', () => expect(botEmailDomain('', 'https://chat.example.com')).toBe('chat.example.com'));
  });

  it('builds <short_name>-bot@<domain> and refuses what is not an address', () => {
    expect(botEmail(' deploy ', 'acme.chat.test')).toBe('deploy-bot@acme.chat.test');
    expect(() => botEmail('a b', 'acme.chat.test')).toThrow(new InvalidEmailError());
    expect(() => checkShortName('  ')).toThrow('Bad name or username');
  });

  it('accepts addresses the way Django\'s validate_email does (used at login)', () => {
    expect(isValidEmailAddress('hamlet@acme.test')).toBe(true);
    expect(isValidEmailAddress('bot@localhost')).toBe(true);
    expect(isValidEmailAddress('hamlet')).toBe(false);
    expect(isValidEmailAddress('hamlet@127.0.0.1')).toBe(false);
    expect(isValidEmailAddress(' hamlet@acme.test')).toBe(false);
    expect(isValidEmailDomain('acme.chat.test:9991')).toBe(false);
  });
});
