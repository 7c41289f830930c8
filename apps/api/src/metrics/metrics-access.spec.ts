import type { IncomingMessage } from 'node:http';
import { metricsAccess } from './metrics-access';

const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;
const TOKEN = 'a-token-of-sixteen+';

describe('who may read /metrics', () => {
  it.each(['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1'])('a loopback client (%s), with or without a token configured', (address) => {
    expect(metricsAccess(request(address), null, false)).toBe('ok');
    expect(metricsAccess(request(address), TOKEN, false)).toBe('ok');
  });

  it('not a request a proxy relayed, even over loopback', () => {
    expect(metricsAccess(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), null, false)).toBe('forbidden');
    expect(metricsAccess(request('::1', { forwarded: 'for=203.0.113.9' }), TOKEN, false)).toBe('unauthorized');
  });

  it('others: with the bearer token only, and never when none is configured', () => {
    expect(metricsAccess(request('203.0.113.9'), null, false)).toBe('forbidden');
    expect(metricsAccess(request('203.0.113.9'), TOKEN, false)).toBe('unauthorized');
    expect(metricsAccess(request('203.0.113.9', { authorization: `Bearer ${TOKEN}` }), TOKEN, false)).toBe('ok');
    expect(metricsAccess(request('203.0.113.9', { authorization: `bearer ${TOKEN}` }), TOKEN, false)).toBe('unauthorized');
    expect(metricsAccess(request('203.0.113.9', { authorization: `Bearer ${TOKEN.slice(1)}` }), TOKEN, false)).toBe('unauthorized');
    expect(metricsAccess(request('203.0.113.9', { authorization: 'Bearer ' }), null, false)).toBe('forbidden');
    expect(metricsAccess(request('10.0.0.127'), null, false)).toBe('forbidden');
  });

  it('a dedicated listener without a token: its bind address decides; with one, the token does', () => {
    expect(metricsAccess(request('10.0.0.5'), null, true)).toBe('ok');
    expect(metricsAccess(request('10.0.0.5'), TOKEN, true)).toBe('unauthorized');
    expect(metricsAccess(request('10.0.0.5', { authorization: `Bearer ${TOKEN}` }), TOKEN, true)).toBe('ok');
  });
});
