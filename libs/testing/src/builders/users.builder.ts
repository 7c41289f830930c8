import type { UserCreated, UserEvent } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

export const userCreated = (overrides: Partial<UserCreated['data']> = {}): UserCreated => ({
  type: 'UserCreated',
  data: {
    realmId: 1, userId: 10, email: 'hamlet@acme.test', fullName: 'King Hamlet', role: 'member', isBot: false,
    botType: null, botOwnerId: null, apiKeyId: 'api_key-10', passwordId: null, timezone: '', actorId: null, at: AT,
    ...overrides,
  },
});

export const userDeactivated = (userId = 10, realmId = 1): UserEvent => ({ type: 'UserDeactivated', data: { realmId, userId, actorId: null, at: AT } });
export const userRoleChanged = (userId: number, oldRole: UserCreated['data']['role'], newRole: UserCreated['data']['role']): UserEvent => ({
  type: 'UserRoleChanged', data: { realmId: 1, userId, oldRole, newRole, actorId: null, at: AT },
});
