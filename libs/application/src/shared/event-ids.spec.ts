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

  it('keeps the 48-bit time of a time-ordered (version 7) command id: the ids are version 7 and sort by their commands\' times', () => {
    const at = (ms: number, rest: string) => {
      const time = ms.toString(16).padStart(12, '0');
      return `${time.slice(0, 8)}-${time.slice(8)}-7${rest}`;
    };
    const earlier = at(1_790_000_000_000, 'abc-9def-0123456789ab');
    const later = at(1_790_000_000_001, '000-8000-000000000000');
    const ids = [0, 1, 2].map((index) => deterministicEventId(earlier, 'message-7', 'no_stream', index));
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(id.slice(0, 13)).toBe(earlier.slice(0, 13));
    }
    expect(new Set(ids).size).toBe(3);
    expect(deterministicEventId(earlier, 'message-7', 'no_stream', 0)).toBe(ids[0]);
    const next = deterministicEventId(later, 'message-8', 'no_stream', 0);
    expect(ids.every((id) => id < next)).toBe(true);
    // The rest of the id is the hash's, as for any other command id.
    expect(ids[0].slice(14)).not.toBe(deterministicEventId(earlier, 'message-7', 'no_stream', 1).slice(14));
  });
});
