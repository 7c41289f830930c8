import type { Request } from 'express';
import { envelope, envelopeJson, SerializedResult } from './envelope';

const request = (url: string, query: Record<string, string> = {}, body?: Record<string, string>) =>
  ({ originalUrl: url, query, body }) as unknown as Request;

describe('SerializedResult', () => {
  it('gives the bytes of the envelope of its value, with and without ignored parameters', () => {
    const values: Record<string, unknown>[] = [
      {},
      { user_id: 5 },
      { email: 'a@b.c', full_name: 'Ünïcode "quoted" \\ name', nested: { '10': 1, b: [1, 'x', null] }, absent: undefined, flag: false },
    ];
    for (const value of values) {
      for (const make of [() => request('/api/v1/users/me'), () => request('/api/v1/users/me?zz=1&aa=2', { zz: '1', aa: '2' }), () => request('/api/v1/x', {}, { b: '1' })]) {
        expect(envelopeJson(make(), new SerializedResult(value))).toBe(JSON.stringify(envelope(make(), value)));
        expect(envelope(make(), new SerializedResult(value))).toEqual(envelope(make(), value));
      }
    }
  });

  it('refuses values whose keys the splice would misplace: the envelope\'s own, integer-like ones', () => {
    for (const key of ['result', 'msg', 'ignored_parameters_unsupported', '7', '0']) {
      expect(() => new SerializedResult({ [key]: 1 })).toThrow(/cannot have the key/);
    }
  });
});
