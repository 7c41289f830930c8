import type { ApiRoute } from '../../../apps/api/src/openapi/api-routes';

/** A small deterministic PRNG (mulberry32) so a failing fuzz case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FuzzRequest = {
  method: string;
  path: string;
  /** Form fields, or a raw body (invalid UTF-8 and such). */
  form?: Record<string, string>;
  rawBody?: Buffer;
  contentType?: string;
  query?: Record<string, string>;
  auth: 'valid' | 'none' | 'bad-key' | 'malformed-key' | 'bearer' | 'garbage';
  label: string;
};

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Values that break typed parameters in every way Zulip clients and attackers manage to. */
export const HOSTILE_VALUES: string[] = [
  '', ' ', 'abc', '1.5', '-1', '0', 'true', 'null', '[]', '{}', '"x"', '[1,"a"]', '{"a":', '9'.repeat(400), '1e400',
  '-9007199254740993', '\u0000', 'a\u0000b', '\ud800', '\u202e\u0000', '💥'.repeat(50), 'x'.repeat(70_000),
  deepJson(5000), '[' + '1,'.repeat(20_000) + '1]', '{"__proto__":{"polluted":true}}', '<script>alert(1)</script>',
  '%FF%FE', '../../etc/passwd', 'NaN', 'Infinity', '[null]', '[[1]]', '{"stream_id":"x"}',
];

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

const fillPath = (route: ApiRoute, random: () => number, valid: boolean) =>
  route.path.replace(/:([A-Za-z_]+)/g, () => (valid ? String(1 + Math.floor(random() * 20)) : encodeURIComponent(pick(random, ['abc', '-1', '0', '99999999999999999999', '1.5', '%00', '😀']))));

/** `count` malformed requests spread over the routes, deterministic for a seed. */
export function generateFuzzRequests(routes: ApiRoute[], count: number, seed = 1): FuzzRequest[] {
  const random = seededRandom(seed);
  const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
  const requests: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const route = routes[i % routes.length];
    const kind = Math.floor(random() * 10);
    const base = { method: route.method, path: fillPath(route, random, kind !== 7), auth: 'valid' as const };
    const names = route.params.map((p) => p.name);
    const form: Record<string, string> = {};
    // Start from a plausible request, then break it.
    for (const name of names) if (random() < 0.5) form[name] = pick(random, HOSTILE_VALUES);
    switch (kind) {
      case 0: // every parameter hostile
        for (const name of names) form[name] = pick(random, HOSTILE_VALUES);
        requests.push({ ...base, form, label: `${route.method} ${route.path}: all params hostile` });
        break;
      case 1: // unknown parameters and prototype keys
        requests.push({ ...base, form: { ...form, __proto__x: '1', constructor: '{}', ['zz' + Math.floor(random() * 1000)]: 'x' }, label: 'unknown params' });
        break;
      case 2: // in the query string instead
        requests.push({ ...base, query: form, label: 'hostile query' });
        break;
      case 3: // wrong method
        requests.push({ ...base, method: pick(random, methods.filter((m) => m !== route.method)), form, label: 'wrong method' });
        break;
      case 4: // credentials
        requests.push({ ...base, form, auth: pick(random, ['none', 'bad-key', 'malformed-key', 'bearer', 'garbage'] as const), label: 'bad credentials' });
        break;
      case 5: // invalid UTF-8 and NUL bytes in a raw form body
        requests.push({
          ...base,
          rawBody: Buffer.concat([Buffer.from(`${names[0] ?? 'x'}=`), Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]), Buffer.from('&a=%E0%A4%A')]),
          contentType: 'application/x-www-form-urlencoded',
          label: 'invalid utf-8 body',
        });
        break;
      case 6: // a body that claims one type and is another
        requests.push({ ...base, rawBody: Buffer.from(pick(random, ['{"a":1}', '--x\r\n', '\u0000\u0000', deepJson(20)])), contentType: pick(random, ['application/json', 'multipart/form-data; boundary=x', 'text/plain', 'application/x-www-form-urlencoded; charset=latin1']), label: 'mismatched body' });
        break;
      case 7: // hostile path parameters
        requests.push({ ...base, form, label: 'hostile path' });
        break;
      default: // one hostile parameter among plausible ones
        if (names.length > 0) form[pick(random, names)] = pick(random, HOSTILE_VALUES);
        requests.push({ ...base, form, label: 'one hostile param' });
    }
  }
  return requests;
}
