import bcrypt from 'bcryptjs';

/** bcrypt cost 12 (~250 ms here): slow enough to resist offline guessing, fast enough for logins. */
const COST = 12;

export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, COST);
export const verifyPassword = (password: string, hash: string): Promise<boolean> => bcrypt.compare(password, hash);

/** Zulip's API keys: 32 characters from [A-Za-z0-9]. */
export const API_KEY_LENGTH = 32;
