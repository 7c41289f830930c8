import type { Request } from 'express';
import { clientName, parseUserAgent } from './client-name';

const request = (userAgent: string | undefined, body: Record<string, string> = {}) =>
  ({ headers: userAgent === undefined ? {} : { 'user-agent': userAgent }, query: {}, body }) as unknown as Request;

describe('client detection', () => {
  it.each([
    ['ZulipPython/0.9.0 (Linux; Python 3.11)', 'ZulipPython'],
    ['ZulipMobile/27.1 (Android 14)', 'ZulipMobile'],
    ['ZulipElectron/5.11.1 Chrome/120', 'ZulipElectron'],
    ['ZulipTerminal/0.7.0 Linux', 'ZulipTerminal'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'Mozilla'],
    ['curl/8.5.0', 'curl'],
    ['ZulipInvalid', 'ZulipInvalid'],
  ])('names %s as %s', (userAgent, name) => {
    expect(parseUserAgent(userAgent)?.name).toBe(name);
    expect(clientName(request(userAgent))).toBe(name);
  });

  it('prefers the client parameter, and says Unspecified without either', () => {
    expect(clientName(request('ZulipPython/1.0', { client: 'website' }))).toBe('website');
    expect(clientName(request(undefined))).toBe('Unspecified');
  });
});
