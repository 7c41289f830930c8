import { randomInt, randomUUID } from 'node:crypto';
import type { RandomPort } from '@app/application';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class CryptoRandom implements RandomPort {
  alphanumeric(length: number): string {
    // randomInt draws without modulo bias from the CSPRNG.
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
    return out;
  }

  uuid(): string {
    return randomUUID();
  }

  /** RFC 9562 version 7: 48 bits of Unix time in milliseconds, then 74 random bits (of a v4 UUID). */
  timeOrderedUuid(): string {
    const time = Date.now().toString(16).padStart(12, '0').slice(-12);
    const random = randomUUID();
    return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
  }
}
