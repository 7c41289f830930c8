import { deterministicEventId } from './event-ids';

const UUID_V5_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const COMMAND = '3f1c9a52-7a8e-4c1b-9d2e-2b8f0e6a1c44';

describe('deterministicEventId', () => {
  it('is deterministic: the same command, stream, expected revision and index give the same id', () => {
    expect(deterministicEventId(COMMAND, 'users-1', 'no_stream', 0)).toBe(deterministicEventId(COMMAND, 'users-1', 'no_stream', 0));
  });

  it('is stable across releases (a retried append after an upgrade must send the same ids)', () => {
    expect(deterministicEventId(COMMAND, 'users-1', 'no_stream', 0)).toBe('4e05ddb8-e875-52ad-8518-20ff0b90118a');
  });

  it('is shaped like an RFC 4122 UUID with version 5 and the RFC variant, for many inputs', () => {
    for (let i = 0; i < 500; i++) {
      const id = deterministicEventId(`command-${i}`, `stream-${i % 7}`, String(i % 13), i % 5);
      expect(id).toMatch(UUID_V5_SHAPE);
    }
  });

  it('uses every variant nibble (8, 9, a, b): the variant keeps two bits of the hash', () => {
    const variants = new Set<string>();
    for (let i = 0; i < 200; i++) variants.add(deterministicEventId(`command-${i}`, 's-1', '0', 0)[19]);
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });

  it('differs when any single input differs', () => {
    const base = deterministicEventId(COMMAND, 'users-1', '4', 0);
    const variations = [
      deterministicEventId('3f1c9a52-7a8e-4c1b-9d2e-2b8f0e6a1c45', 'users-1', '4', 0),
      deterministicEventId(COMMAND, 'users-2', '4', 0),
      deterministicEventId(COMMAND, 'users-1', '5', 0),
      deterministicEventId(COMMAND, 'users-1', 'no_stream', 0),
      deterministicEventId(COMMAND, 'users-1', '4', 1),
    ];
    expect(new Set([base, ...variations]).size).toBe(6);
  });

  it('does not let one field run into the next (separated inputs)', () => {
    expect(deterministicEventId('ab', 'c', '1', 0)).not.toBe(deterministicEventId('a', 'bc', '1', 0));
    expect(deterministicEventId(COMMAND, 's-1', '1', 10)).not.toBe(deterministicEventId(COMMAND, 's-1', '11', 0));
  });

  it('gives the events of one append distinct ids', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => deterministicEventId(COMMAND, 'messages-1', '41', index));
    expect(new Set(ids).size).toBe(1000);
  });
});
