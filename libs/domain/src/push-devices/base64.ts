/**
 * Python's `base64.b64decode(s, validate=True)`: the standard alphabet only, at most two "=" at the
 * end, whole quanta. Returns the bytes, or null where Python raises binascii.Error.
 */
export function decodeStrictBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const data = text.replace(/=+$/, '');
  const padding = text.length - data.length;
  const rest = data.length % 4;
  // Python: 1 data character over a quantum is an error; 2 need "==", 3 exactly "=".
  if (rest === 1 || (rest === 2 && padding < 2) || (rest === 3 && padding !== 1)) return null;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of data) {
    buffer = (buffer << 6) | alphabet.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Python's `int.from_bytes(b, "big", signed=True)`: how Zulip compares token ids. */
export function signedBigEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  if (bytes.length > 0 && bytes[0] & 0x80) value -= 1n << BigInt(bytes.length * 8);
  return value;
}
