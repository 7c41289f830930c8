/**
 * Realistic event payloads for the benchmarks, in the shapes of libs/domain (RealmCreated and the
 * user events), with the sizes real ones have (a bcrypt hash, a 32-character API key, ISO times).
 */
import { randomUUID } from 'node:crypto';
import { CURRENT_SCHEMA_VERSION, ROLES, type RealmCreated, type Role, type UserEvent } from '@app/domain';
import type { EventToAppend } from '@app/application';
import { seededRandom } from '../libs/testing/src/seeded-random';

/**
 * A small deterministic PRNG, so that every run generates the same workload: the tests' own
 * (imported by path, not through @app/testing, whose index loads jest helpers).
 */
export const rng = seededRandom;

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BCRYPT = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const chars = (random: () => number, alphabet: string, length: number) => {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
};
const FIRST = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Donald', 'Frances', 'Ken', 'Margaret', 'Niklaus', 'Radia', 'Tim'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Dijkstra', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Wirth', 'Perlman'];
const TIMEZONES = ['', 'UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];

export class EventFactory {
  private clock = Date.parse('2024-01-01T00:00:00Z');

  constructor(private readonly random: () => number) {}

  /** An ISO time that moves forward a little with every event. */
  at(): string {
    this.clock += 1 + Math.floor(this.random() * 5000);
    return new Date(this.clock).toISOString();
  }

  /** A credential store entry's name, as the events carry (a UUID's length; the secrets are not in events). */
  apiKeyId(): string {
    return chars(this.random, ALNUM, 36);
  }

  fullName(): string {
    return `${pick(this.random, FIRST)} ${pick(this.random, LAST)}`;
  }

  role(): Role {
    // Mostly members, as in a real organization.
    const r = this.random();
    return r < 0.8 ? 'member' : r < 0.9 ? 'guest' : pick(this.random, ROLES);
  }

  realmCreated(realmId: number): RealmCreated {
    return {
      type: 'RealmCreated',
      data: { realmId, stringId: `org${realmId}`, name: `Organization ${realmId}`, description: 'A benchmark organization.', at: this.at() },
    };
  }

  userCreated(realmId: number, userId: number): UserEvent {
    const isBot = this.random() < 0.03;
    return {
      type: 'UserCreated',
      data: {
        realmId,
        userId,
        email: `user${userId}@org${realmId}.example.com`,
        fullName: this.fullName(),
        role: isBot ? 'member' : this.role(),
        isBot,
        botType: isBot ? 'generic' : null,
        botOwnerId: isBot ? Math.max(1, userId - 1) : null,
        apiKeyId: this.apiKeyId(),
        passwordId: isBot ? null : this.apiKeyId(),
        timezone: pick(this.random, TIMEZONES),
        actorId: null,
        at: this.at(),
      },
    };
  }

  /** One of the changes to an existing user, in rough real-world proportions. */
  userChanged(realmId: number, userId: number): UserEvent {
    const r = this.random();
    const base = { realmId, userId, actorId: 1, at: this.at() };
    if (r < 0.3) return { type: 'UserFullNameChanged', data: { ...base, oldName: this.fullName(), newName: this.fullName() } };
    if (r < 0.5) return { type: 'UserRoleChanged', data: { ...base, oldRole: 'member', newRole: this.role() } };
    if (r < 0.65) return { type: 'UserApiKeyRegenerated', data: { ...base, apiKeyId: this.apiKeyId() } };
    if (r < 0.8) return { type: 'UserPasswordChanged', data: { ...base, passwordId: this.apiKeyId() } };
    if (r < 0.9) return { type: 'UserDeactivated', data: base };
    return { type: 'UserReactivated', data: base };
  }
}

/** Wraps a domain event as the application's DeciderRunner does. */
export const toAppend = (event: { type: string; data: object }, commandId = randomUUID()): EventToAppend => ({
  id: randomUUID(),
  type: event.type,
  data: event.data,
  metadata: { schemaVersion: CURRENT_SCHEMA_VERSION, commandId },
});
