import { createHash } from 'node:crypto';
import type { RandomPort } from '../ports/random.port';

/**
 * Confirmation keys (the secret part of a confirmation link: Zulip's confirmation.models
 * generate_key, 24 lowercase letters and digits). The key goes only into the mail; the log and the
 * read models hold its SHA-256, which finds the link when it is followed and cannot be turned back
 * into a working link.
 */
export const CONFIRMATION_KEY_LENGTH = 24;

export const newConfirmationKey = (random: RandomPort): string => random.alphanumeric(CONFIRMATION_KEY_LENGTH).toLowerCase();

/** The digest the log keeps of a key: SHA-256, hex. */
export const confirmationKeyDigest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
