import { timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * bcrypt cost 12 (~250 ms here) by default: slow enough to resist offline guessing, fast enough for
 * logins. PASSWORD_HASH_COST lowers it for test runs (the cost is stored in each hash, so hashes
 * made at any cost keep verifying).
 */
export const DEFAULT_PASSWORD_HASH_COST = 12;

export const hashPassword = (password: string, cost = DEFAULT_PASSWORD_HASH_COST): Promise<string> => bcrypt.hash(password, cost);
export const verifyPassword = (password: string, hash: string): Promise<boolean> => bcrypt.compare(password, hash);

/** Zulip's API keys: 32 characters from [A-Za-z0-9]. */
export const API_KEY_LENGTH = 32;

/** zerver/lib/utils.py has_api_key_format: exactly 32 characters of [A-Za-z0-9]. */
export const hasApiKeyFormat = (key: string): boolean => /^[A-Za-z0-9]{32}$/.test(key);

/**
 * Compares a presented API key with the stored one in constant time. Keys of different lengths
 * never match, but the comparison still runs (over the presented key) so that the time taken does
 * not depend on where the keys differ or on the stored key's length.
 */
export function apiKeysMatch(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(stored, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}
