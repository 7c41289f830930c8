import { decodeStrictBase64, signedBigEndian } from './base64';
import { PushRegistrationError } from './push-devices.errors';
import type { TokenKind } from './push-devices.events';

/** zerver/lib/push_registration.py check_push_key: Base64 of 33 bytes, the first 0x31 (secretbox, 32-byte key). */
export function checkPushKey(pushKey: string): void {
  const bytes = decodeStrictBase64(pushKey);
  if (bytes === null || bytes.length !== 33 || bytes[0] !== 0x31) throw PushRegistrationError.invalidPushKey();
}

/** zerver/lib/devices.py b64decode_token_id_base64: the token id as the signed integer Zulip compares. */
export function tokenIdValue(tokenId: string): bigint {
  const bytes = decodeStrictBase64(tokenId);
  if (bytes === null) throw PushRegistrationError.tokenIdNotBase64();
  return signedBigEndian(bytes);
}

/** The same comparison for ids already stored (valid by construction). */
export const sameTokenId = (a: string, b: string): boolean => {
  const x = decodeStrictBase64(a);
  const y = decodeStrictBase64(b);
  return x !== null && y !== null && signedBigEndian(x) === signedBigEndian(y);
};

/** zerver/lib/push_notifications.py validate_token (legacy registrations). */
export function checkLegacyToken(token: string, kind: TokenKind): void {
  if (token === '' || token.length > 4096) throw PushRegistrationError.badTokenLength();
  // bytes.fromhex: pairs of hex digits, whitespace allowed between them.
  if (kind === 'apns' && !/^\s*(?:[0-9a-fA-F]{2}\s*)*$/.test(token)) throw PushRegistrationError.invalidApnsToken();
}

/** The ApnsAppId parameter type: a bundle id. */
export function checkAppId(appId: string): void {
  if (!/^[.a-zA-Z0-9-]+$/.test(appId)) throw PushRegistrationError.invalidAppId();
}
