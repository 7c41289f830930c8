import { randomBytes } from 'node:crypto';
import { pooledRandomBytes, seal, unseal } from './sealing';

describe('sealing', () => {
  it('opens what it sealed, with the same key and associated data only', () => {
    const key = randomBytes(32);
    const sealed = seal(key, 'aad', 'a text');
    expect(sealed).toMatch(/^v1:/);
    expect(unseal(key, 'aad', sealed)).toBe('a text');
    expect(() => unseal(key, 'other', sealed)).toThrow();
    expect(() => unseal(randomBytes(32), 'aad', sealed)).toThrow();
  });

  it('draws a fresh IV for every seal (the same text sealed twice differs)', () => {
    const key = randomBytes(32);
    const ivs = new Set(Array.from({ length: 2000 }, () => Buffer.from(seal(key, 'aad', 'same').slice(3), 'base64').subarray(0, 12).toString('hex')));
    expect(ivs.size).toBe(2000);
  });

  it('pooled random bytes: copies of the asked size, never handed out twice, across pool refills', () => {
    const drawn = Array.from({ length: 1000 }, () => pooledRandomBytes(32));
    expect(drawn.every((b) => b.length === 32)).toBe(true);
    expect(new Set(drawn.map((b) => b.toString('hex'))).size).toBe(1000);
    // A copy: changing it changes no later draw.
    drawn[0].fill(0);
    expect(pooledRandomBytes(32).equals(Buffer.alloc(32))).toBe(false);
    expect(pooledRandomBytes(5000)).toHaveLength(5000);
  });
});
