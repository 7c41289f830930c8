import { DomainError } from '@app/domain';
import { MissingAuthenticationError, UnauthorizedError } from './api.errors';
import { parseBasicAuthorization } from './authentication.guard';

const basic = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const KEY = 'abcdefghijABCDEFGHIJ0123456789ab';

describe('parseBasicAuthorization', () => {
  it('reads the email and the API key of "Basic <base64>"', () => {
    expect(parseBasicAuthorization(`Basic ${basic(`hamlet@example.com:${KEY}`)}`)).toEqual({ email: 'hamlet@example.com', apiKey: KEY });
  });

  it('splits at the first colon: the key keeps any further ones', () => {
    expect(parseBasicAuthorization(`Basic ${basic('a@b.c:x:y')}`)).toEqual({ email: 'a@b.c', apiKey: 'x:y' });
  });

  it('accepts any case of the scheme and any whitespace around and between the parts, as Zulip', () => {
    const encoded = basic(`hamlet@example.com:${KEY}`);
    for (const header of [`basic ${encoded}`, `BASIC ${encoded}`, `  Basic   ${encoded}  `, `Basic\t${encoded}`]) {
      expect(parseBasicAuthorization(header)).toEqual({ email: 'hamlet@example.com', apiKey: KEY });
    }
  });

  it('refuses a missing or blank header', () => {
    expect(() => parseBasicAuthorization(undefined)).toThrow(MissingAuthenticationError);
    expect(() => parseBasicAuthorization('   ')).toThrow(MissingAuthenticationError);
  });

  it('refuses another scheme', () => {
    expect(() => parseBasicAuthorization('Bearer abc')).toThrow(new DomainError('This endpoint requires HTTP basic authentication.'));
  });

  it('refuses malformed credentials with Zulip\'s message', () => {
    const invalid = new UnauthorizedError('Invalid authorization header for basic auth');
    for (const header of ['Basic', 'Basic ', `Basic ${basic('no-colon')}`, 'Basic a b', 'Basic not*base64', `Basic ${basic('a:b')} extra`]) {
      expect(() => parseBasicAuthorization(header)).toThrow(invalid.message);
      expect(() => parseBasicAuthorization(header)).toThrow(UnauthorizedError);
    }
  });
});
