import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { bodyParsers, parsePlainForm } from './body-parsing';

const limits = { formBytes: 4096, fileBytes: 4096, fields: 6 };
const parse = bodyParsers(limits);

/** A request carrying `bytes` as it arrives from Node's HTTP parser: not yet read, its length declared. */
function request(bytes: Buffer, contentType: string): Request {
  const stream = Readable.from(bytes.length > 3 ? [bytes.subarray(0, 3), bytes.subarray(3)] : [bytes], { objectMode: false });
  return Object.assign(stream, {
    headers: { 'content-type': contentType, 'content-length': String(bytes.length) },
    complete: false,
    socket: { readable: true },
  }) as unknown as Request;
}

/** What the body parsers make of a form body: the body (its entries in order, and its prototype) or the error. */
function parsed(bytes: Buffer, contentType: string): Promise<unknown> {
  const req = request(bytes, contentType);
  return new Promise((resolve) => {
    parse(req, {} as Response, '/messages', (error?: unknown) => {
      const body = (req as { body?: unknown }).body;
      resolve(error ? { error: (error as Error).message } : { body: body === undefined ? 'undefined' : [Object.getPrototypeOf(body) === Object.prototype, JSON.stringify(Object.entries(body as object))] });
    });
  });
}

// body-parser itself takes a form body with an explicit charset=utf-8 (the same decoding); the plain type takes the fast path.
const reference = (bytes: Buffer) => parsed(bytes, 'application/x-www-form-urlencoded; charset=utf-8');
const fast = (bytes: Buffer) => parsed(bytes, 'application/x-www-form-urlencoded');

describe('form bodies', () => {
  it('parses the plain names most requests send without body-parser, as qs decodes them', () => {
    expect(parsePlainForm('type=stream&to=crowd&topic=load&content=A+message+with+a+%5Blink%5D%28https%3A%2F%2Fexample.com%29.')).toEqual({
      type: 'stream', to: 'crowd', topic: 'load', content: 'A message with a [link](https://example.com).',
    });
    expect(parsePlainForm('')).toEqual({});
    expect(parsePlainForm('a&b=&c=%zz')).toEqual({ a: '', b: '', c: '%zz' });
  });

  it('leaves bracketed, repeated, empty and __proto__ names to body-parser', () => {
    for (const body of ['a[b]=1', 'a%5Bb%5D=1', 'a[]=1', 'a=1&a=2', '=x', 'a=1&&b=2', '__proto__=1', 'a=x%5D=y']) expect(parsePlainForm(body)).toBeUndefined();
  });

  it('gives exactly what body-parser gives, for random bodies', async () => {
    let seed = 7;
    const random = () => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const names = ['a', 'content', 'to', 'constructor', 'toString', '0', '1', '__proto__', '%5F%5Fproto%5F%5F', 'x[y]', '[x]', '[0]', '[]', 'a[]', '', '%5B', '%5Bz%5D', 'a%20b', 'a+b', '%C3%A9', '%zz', '%255B'];
    const values = ['', 'x', '+', '%20', '%', '%zz', '%E2%9C%93', '%E2%9C', '=', ']=', '%5D=', '%5B', '[', 'a+b%2Bc', '%FF', '&#10003;'];
    let fastPaths = 0;
    for (let i = 0; i < 1500; i++) {
      const parts: string[] = [];
      const count = Math.floor(random() * 5);
      for (let j = 0; j < count; j++) parts.push(random() < 0.1 ? pick(names) : `${pick(names)}=${pick(values)}${random() < 0.3 ? pick(values) : ''}`);
      let body = parts.join('&');
      if (random() < 0.05) body = `\ufeff${body}`;
      if (random() < 0.05) body = `${body}&${body}&${body}`;
      const bytes = random() < 0.05 ? Buffer.concat([Buffer.from(body), Buffer.from([0xe2, 0x9c])]) : Buffer.from(body);
      if (parsePlainForm(body) !== undefined) fastPaths++;
      expect([body, await fast(bytes)]).toEqual([body, await reference(bytes)]);
    }
    // Both ways are exercised: bodies parsed here, and bodies given back to body-parser.
    expect(fastPaths).toBeGreaterThan(300);
    expect(fastPaths).toBeLessThan(1400);
  });

  it('refuses too many parameters as body-parser does', async () => {
    const bytes = Buffer.from('a=1&b=2&c=3&d=4&e=5&f=6&g=7');
    expect(await fast(bytes)).toEqual({ error: 'Too many parameters (more than 1000)' });
    expect(await fast(bytes)).toEqual(await reference(bytes));
  });
});
