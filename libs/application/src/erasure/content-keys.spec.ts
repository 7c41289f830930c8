import { timeOrderedKeyId } from './content-keys';

describe('timeOrderedKeyId', () => {
  it('is a UUIDv7: version 7, RFC 9562 variant, the millisecond time first', () => {
    const id = timeOrderedKeyId(Date.UTC(2026, 10, 29, 16, 0, 0));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2026, 10, 29, 16, 0, 0));
  });

  it('sorts later ids after earlier ones, and never repeats', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => timeOrderedKeyId(1_700_000_000_000 + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 100; i < ids.length; i += 100) expect(ids[i] > ids[i - 1]).toBe(true);
  });
});
