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
}
