import { decodeStrictBase64, signedBigEndian } from './base64';

/** Python's base64.b64decode(s, validate=True), case by case. */
describe('decodeStrictBase64', () => {
  it.each([
    ['', []],
    ['aQ==', [0x69]],
    ['abc=', [0x69, 0xb7]],
    ['abcd', [0x69, 0xb7, 0x1d]],
    ['abcd==', [0x69, 0xb7, 0x1d]],
    ['abcd=', [0x69, 0xb7, 0x1d]],
  ])('decodes %j', (text, bytes) => expect([...decodeStrictBase64(text)!]).toEqual(bytes));

  it.each(['abc', 'ab=', 'ab', 'a===', 'abcde', 'ab=c', 'abc==', 'ab-_', 'ab cd', '@abcdefg'])('refuses %j', (text) =>
    expect(decodeStrictBase64(text)).toBeNull());

  it('reads token ids as Python does (big-endian, signed)', () => {
    expect(signedBigEndian(Uint8Array.from([0x00, 0x01]))).toBe(1n);
    expect(signedBigEndian(Uint8Array.from([0xff]))).toBe(-1n);
    // Zulip's documented example token id, and what Python's int.from_bytes makes of it.
    expect(signedBigEndian(decodeStrictBase64('hGsEWGmyyfI=')!)).toBe(-8905019060418065934n);
  });
});
