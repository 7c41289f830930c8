import { CommandBus } from '@nestjs/cqrs';
import type request from 'supertest';
import { ReactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import type { ApiTestClient } from './api-test-client';
import type { ApiRoute } from '../../apps/api/src/openapi/api-routes';

import { seededRandom } from '@app/testing';

/** The PRNG a failing fuzz case is replayed from (its seed). */
export { seededRandom };

export type FuzzAuth = 'valid' | 'none' | 'bad-key' | 'malformed-key' | 'bearer' | 'garbage' | 'deactivated' | 'unknown-user' | 'guest';

export type FuzzRequest = {
  method: string;
  path: string;
  /** Form fields, or a raw body (invalid UTF-8 and such). */
  form?: Record<string, string>;
  /** Multipart fields (zulip-js sends every POST this way). */
  multipart?: Record<string, string>;
  rawBody?: Buffer;
  contentType?: string;
  /** A raw query string (appended as is: repeated keys, broken escapes, thousands of pairs). */
  rawQuery?: string;
  query?: Record<string, string>;
  auth: FuzzAuth;
  label: string;
};

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Values that break typed parameters in every way Zulip clients and attackers manage to. */
export const HOSTILE_VALUES: string[] = [
  '', ' ', 'abc', '1.5', '-1', '0', 'true', 'null', '[]', '{}', '"x"', '[1,"a"]', '{"a":', '9'.repeat(400), '1e400',
  '-9007199254740993', '9007199254740993', '2147483648', '-2147483649', '\u0000', 'a\u0000b', '\ud800', '\u202e\u0000', '💥'.repeat(50), 'x'.repeat(70_000),
  deepJson(5000), deepJson(33), deepObject(200), '[' + '1,'.repeat(20_000) + '1]', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}',
  '<script>alert(1)</script>', '%FF%FE', '../../etc/passwd', 'NaN', 'Infinity', '[null]', '[[1]]', '{"stream_id":"x"}', '[{"operator":"stream","operand":{"x":[]}}]',
  '[["search","\u0000"]]', '[{"operator":"search","operand":"' + '('.repeat(500) + '"}]', '"' + '\\u0000'.repeat(100) + '"', 'ｔｒｕｅ', '１２', '0x10', '1_000', ' 1 ', '\t[1]\n',
];

/** Methods a route does not have, including ones no route has. */
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];
const AUTHS: FuzzAuth[] = ['none', 'bad-key', 'malformed-key', 'bearer', 'garbage', 'deactivated', 'unknown-user'];

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

const fillPath = (route: ApiRoute, random: () => number, valid: boolean) =>
  route.path.replace(/:([A-Za-z_]+)/g, () =>
    valid ? String(1 + Math.floor(random() * 20)) : encodeURIComponent(pick(random, ['abc', '-1', '0', '99999999999999999999', '1.5', '%00', '😀', '1e3', ' 1', '..', 'x'.repeat(300)])),
  );

/** `count` malformed requests spread over the routes, deterministic for a seed. */
export function generateFuzzRequests(routes: ApiRoute[], count: number, seed = 1): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  const random = seededRandom(seed);
  for (let i = 0; i < count; i++) requests.push(generateOne(routes[i % routes.length], random));
  return requests;
}

/** The same requests one at a time (a big run need not hold them all in memory). */
export function* fuzzRequests(routes: ApiRoute[], count: number, seed = 1): Generator<FuzzRequest> {
  const random = seededRandom(seed);
  for (let i = 0; i < count; i++) yield generateOne(routes[i % routes.length], random);
}

function generateOne(route: ApiRoute, random: () => number): FuzzRequest {
  const kind = Math.floor(random() * 16);
  const base = { method: route.method, path: fillPath(route, random, kind !== 7), auth: 'valid' as const };
  const names = route.params.map((p) => p.name);
  const form: Record<string, string> = {};
  const at = `${route.method} ${route.path}`;
  // Start from a plausible request, then break it.
  for (const name of names) if (random() < 0.5) form[name] = pick(random, HOSTILE_VALUES);
  switch (kind) {
    case 0: // every parameter hostile
      for (const name of names) form[name] = pick(random, HOSTILE_VALUES);
      return { ...base, form, label: `${at}: all params hostile` };
    case 1: // unknown parameters and prototype keys
      return { ...base, form: { ...form, __proto__x: '1', constructor: '{}', hasOwnProperty: '1', ['zz' + Math.floor(random() * 1000)]: 'x' }, label: `${at}: unknown params` };
    case 2: // in the query string instead
      return { ...base, query: form, label: `${at}: hostile query` };
    case 3: // wrong method
      return { ...base, method: pick(random, METHODS.filter((m) => m !== route.method)), form, label: `${at}: wrong method` };
    case 4: // credentials
      return { ...base, form, auth: pick(random, AUTHS), label: `${at}: bad credentials` };
    case 5: // invalid UTF-8 and NUL bytes in a raw form body
      return {
        ...base,
        rawBody: Buffer.concat([Buffer.from(`${names[0] ?? 'x'}=`), Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]), Buffer.from('&a=%E0%A4%A&%00=%00')]),
        contentType: 'application/x-www-form-urlencoded',
        label: `${at}: invalid utf-8 body`,
      };
    case 6: // a body that claims one type and is another
      return {
        ...base,
        rawBody: Buffer.from(pick(random, ['{"a":1}', '--x\r\n', '\u0000\u0000', deepJson(20), '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', ''])),
        contentType: pick(random, ['application/json', 'multipart/form-data; boundary=x', 'multipart/form-data', 'text/plain', 'application/x-www-form-urlencoded; charset=latin1', 'application/x-www-form-urlencoded; charset=utf-16']),
        label: `${at}: mismatched body`,
      };
    case 7: // hostile path parameters
      return { ...base, form, label: `${at}: hostile path` };
    case 8: // every parameter hostile, sent as multipart fields
      for (const name of names) form[name] = pick(random, HOSTILE_VALUES);
      return { ...base, multipart: form, label: `${at}: hostile multipart` };
    case 9: // repeated keys, broken escapes, thousands of pairs in the query string
      return {
        ...base,
        rawQuery: pick(random, [
          names.map((n) => `${n}=1&${n}=%ZZ&${n}[]=2`).join('&'),
          '%', '&&&=&=', Array.from({ length: 1200 }, (_, j) => `k${j}=1`).join('&'), `${names[0] ?? 'a'}=${'%00'.repeat(50)}`, 'a[b][c]=1&a[__proto__]=x',
        ]),
        label: `${at}: raw query`,
      };
    case 10: // plausible values, from a member, a guest (whose access checks differ) or a deactivated user
      for (const name of names) form[name] = pick(random, ['1', '[]', '"x"', 'true', '[1]', '{}', 'x']);
      return { ...base, auth: pick(random, ['valid', 'guest', 'deactivated'] as const), form, label: `${at}: plausible values` };
    case 11: // a path below or beside the route
      return { ...base, path: base.path + pick(random, ['/', '/x', '/../..', '%2F..', '/%00', '//']), form, label: `${at}: path beside` };
    default: // one hostile parameter among plausible ones
      if (names.length > 0) form[pick(random, names)] = pick(random, HOSTILE_VALUES);
      return { ...base, form, label: `${at}: one hostile param` };
  }
}

export type FuzzCredentials = Partial<Record<'valid' | 'valid2' | 'deactivated' | 'guest', { email: string; apiKey: string }>>;

/** Sends one fuzz request with supertest (an app's server or a base URL). */
export function sendFuzzRequest(agent: (method: string, path: string) => request.Test, r: FuzzRequest, credentials: FuzzCredentials): request.Test {
  const valid = (r.path.length % 2 === 0 ? credentials.valid2 : undefined) ?? credentials.valid;
  const path = r.rawQuery !== undefined ? `${r.path}?${r.rawQuery}` : r.path;
  let req = agent(r.method, path);
  if (r.query) req = req.query(r.query);
  if (r.auth === 'valid' && valid) req = req.auth(valid.email, valid.apiKey);
  if (r.auth === 'guest' && credentials.guest) req = req.auth(credentials.guest.email, credentials.guest.apiKey);
  if (r.auth === 'deactivated' && credentials.deactivated) req = req.auth(credentials.deactivated.email, credentials.deactivated.apiKey);
  if (r.auth === 'unknown-user') req = req.auth('nobody@nowhere.test', 'A'.repeat(32));
  if (r.auth === 'bad-key' && valid) req = req.auth(valid.email, 'A'.repeat(32));
  if (r.auth === 'malformed-key' && valid) req = req.auth(valid.email, 'short');
  if (r.auth === 'bearer' && valid) req = req.set('Authorization', `Bearer ${valid.apiKey}`);
  if (r.auth === 'garbage') req = req.set('Authorization', 'Basic !!!not-base64\u00ff');
  // HEAD has no body either way: its parameters go in the query string.
  if (r.method === 'HEAD') return r.form || r.multipart ? req.query({ ...r.form, ...r.multipart }) : req;
  if (r.rawBody) return req.set('Content-Type', r.contentType ?? 'application/octet-stream').send(r.rawBody);
  if (r.multipart) {
    for (const [k, v] of Object.entries(r.multipart)) req = req.field(k, v);
    return req;
  }
  if (r.form) return req.type('form').send(r.form);
  return req;
}

/** Null if the response is acceptable: below 500, and in the envelope (an error with a message and a code). */
export function checkFuzzResponse(r: FuzzRequest, response: request.Response): string | null {
  const body = (response.body ?? {}) as Record<string, unknown>;
  const enveloped =
    body.result === 'success' || (body.result === 'error' && typeof body.msg === 'string' && body.msg !== '' && typeof body.code === 'string');
  const isDocument = r.path === '/api/v1/openapi.json' && r.method === 'GET' && response.status === 200;
  // A HEAD response never has a body (HTTP), so only its status can be judged.
  if (response.status < 500 && (enveloped || isDocument || r.method === 'HEAD')) return null;
  return `${r.label} (auth ${r.auth}): ${r.method} ${r.path}${r.rawQuery ? '?' + r.rawQuery.slice(0, 60) : ''} → ${response.status} ${JSON.stringify(body).slice(0, 200)} ${response.text && !enveloped ? response.text.slice(0, 100) : ''}`;
}

/**
 * Fuzzed requests with valid credentials may deactivate their own caller (DELETE /users/me, or an
 * administrator's DELETE /users/{id} that hit a persona's id): reactivate those personas so the rest
 * of the run still exercises authenticated code. Call every few hundred requests.
 */
export async function keepFuzzPersonasActive(api: ApiTestClient, names: string[]): Promise<void> {
  for (const name of names) {
    const { email, apiKey, userId } = api.user(name);
    const probe = await api.http.get('/api/v1/users/me').auth(email, apiKey);
    if (probe.status === 401) await api.app.get(CommandBus).execute(new ReactivateUserCommand({ actor: operatorActor(api.realmId) }, userId));
  }
}

/** A successful write under /users may have deactivated a persona (see keepFuzzPersonasActive). */
export const mayHaveDeactivated = (r: FuzzRequest, response: request.Response) =>
  response.status === 200 && r.method !== 'GET' && r.path.startsWith('/api/v1/users');
