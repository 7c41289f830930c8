import { canAccessDeliveryEmail, displayEmailAddress, dummyEmailUserId, EMAIL_ADDRESS_VISIBILITY as V, type Role } from '@app/domain';

describe('email address visibility (can_access_delivery_email, get_display_email_address)', () => {
  const viewer = (role: Role | 'operator', userId: number | null = 50) => ({ role, userId });
  const roles: Role[] = ['owner', 'administrator', 'moderator', 'member', 'guest'];
  const allowed = (visibility: number) => roles.filter((role) => canAccessDeliveryEmail(viewer(role), 7, visibility));

  it('follows ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS for each setting', () => {
    expect(allowed(V.everyone)).toEqual(roles);
    expect(allowed(V.members)).toEqual(['owner', 'administrator', 'moderator', 'member']);
    expect(allowed(V.moderators)).toEqual(['owner', 'administrator', 'moderator']);
    expect(allowed(V.admins)).toEqual(['owner', 'administrator']);
  });

  it('"nobody" means nobody but the user: owners and administrators included', () => {
    expect(allowed(V.nobody)).toEqual([]);
    expect(canAccessDeliveryEmail(viewer('guest', 7), 7, V.nobody)).toBe(true);
  });

  it('the operator reads every address; a missing setting is "everyone"', () => {
    expect(canAccessDeliveryEmail(viewer('operator', null), 7, V.nobody)).toBe(true);
    expect(canAccessDeliveryEmail(viewer('guest'), 7, undefined)).toBe(true);
  });

  it('shows the real address only under "everyone", otherwise user<id>@<fake domain>', () => {
    expect(displayEmailAddress(7, 'hamlet@acme.test', V.everyone, 'acme.chat.test')).toBe('hamlet@acme.test');
    for (const v of [V.members, V.admins, V.nobody, V.moderators]) expect(displayEmailAddress(7, 'hamlet@acme.test', v, 'acme.chat.test')).toBe('user7@acme.chat.test');
  });

  it('reads the id out of a dummy address', () => {
    expect(dummyEmailUserId('user7@acme.chat.test')).toBe(7);
    expect(dummyEmailUserId('USER12@localhost')).toBe(12);
    expect(dummyEmailUserId('hamlet@acme.test')).toBeNull();
    expect(dummyEmailUserId('user7x@acme.test')).toBeNull();
  });
});
