import type { Actor } from '@app/domain';
import { actorFromUser, formatOwnUser, formatUser } from './user-format';
import type { UserDocument } from './user.documents';

const hamlet: UserDocument = {
  user_id: 10, realm_id: 1, email: 'hamlet@acme.test', delivery_email: 'hamlet@acme.test', full_name: 'King Hamlet',
  date_joined: '2026-01-02T03:04:05.678Z', is_active: true, is_owner: false, is_admin: false, is_guest: false, is_bot: false,
  bot_type: null, bot_owner_id: null, role: 400, role_name: 'member', timezone: 'Europe/Copenhagen', avatar_version: 1, is_billing_admin: false,
};
const helper: UserDocument = {
  ...hamlet, user_id: 20, email: 'helper-bot@acme.test', delivery_email: 'helper-bot@acme.test', full_name: 'Helper',
  is_bot: true, bot_type: 2, bot_owner_id: 10, timezone: '',
};
const actor = (userId: number, role: Actor['role']): Actor => ({ realmId: 1, userId, role, isBot: false });
const iago = actor(2, 'administrator');
const cordelia = actor(11, 'member');

describe('formatUser (Zulip\'s user object)', () => {
  it('has exactly the API fields, in Zulip\'s shape, without read-model bookkeeping', () =>
    expect(formatUser(hamlet, iago)).toEqual({
      email: 'hamlet@acme.test',
      user_id: 10,
      avatar_version: 1,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_billing_admin: false,
      role: 400,
      is_bot: false,
      full_name: 'King Hamlet',
      timezone: 'Europe/Copenhagen',
      is_active: true,
      date_joined: '2026-01-02T03:04+00:00',
      delivery_email: 'hamlet@acme.test',
      is_imported_stub: false,
      avatar_url: '/avatar/10',
    }));

  it('shows delivery_email to the user and to the roles the user\'s email_address_visibility allows', () => {
    expect(formatUser(hamlet, cordelia).delivery_email).toBe('hamlet@acme.test'); // "everyone", the default
    const adminsOnly = { ...hamlet, email: 'user10@acme.chat.test', email_address_visibility: 3 };
    expect(formatUser(adminsOnly, actor(10, 'member')).delivery_email).toBe('hamlet@acme.test');
    expect(formatUser(adminsOnly, cordelia).delivery_email).toBeNull();
    expect(formatUser(adminsOnly, actor(3, 'moderator')).delivery_email).toBeNull();
    expect(formatUser(adminsOnly, actor(1, 'owner'))).toMatchObject({ email: 'user10@acme.chat.test', delivery_email: 'hamlet@acme.test' });
    expect(formatUser({ ...adminsOnly, email_address_visibility: 4 }, actor(1, 'owner')).delivery_email).toBeNull();
  });

  it('gives date_joined as Python\'s isoformat(timespec="minutes") of the UTC time, for any stored time', () => {
    const viaDate = (iso: string, spectator: boolean) => {
      const d = new Date(iso);
      const two = (n: number) => String(n).padStart(2, '0');
      const date = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
      return spectator ? date : `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}+00:00`;
    };
    const times = ['2024-02-29T23:59:59.999Z', '2023-02-29T10:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-12-31T23:59:00Z', '2000-02-29T00:00:00.5Z', '1900-02-29T12:00:00.000Z'];
    for (let t = Date.UTC(1999, 0, 1); t < Date.UTC(2030, 0, 1); t += 7_777_777_777) times.push(new Date(t).toISOString());
    for (const iso of times) {
      expect(formatUser({ ...hamlet, date_joined: iso }, iago).date_joined).toBe(viaDate(iso, false));
      expect(formatUser({ ...hamlet, date_joined: iso }, null).date_joined).toBe(viaDate(iso, true));
    }
  });

  it('gives spectators the date only, no timezone and no delivery_email', () => {
    const user = formatUser(hamlet, null);
    expect(user.date_joined).toBe('2026-01-02');
    expect(user).not.toHaveProperty('timezone');
    expect(user.delivery_email).toBeNull();
  });

  it('adds bot_type and bot_owner_id for bots, profile_data for humans when asked', () => {
    expect(formatUser(helper, cordelia)).toMatchObject({ is_bot: true, bot_type: 2, bot_owner_id: 10 });
    expect(formatUser(hamlet, cordelia)).not.toHaveProperty('bot_type');
    const profileData = { '1': { value: 'Denmark', rendered_value: '<p>Denmark</p>' } };
    expect(formatUser(hamlet, cordelia, { profileData }).profile_data).toEqual(profileData);
    expect(formatUser(helper, cordelia, { profileData })).not.toHaveProperty('profile_data');
  });

  it('takes another avatar URL when given', () =>
    expect(formatUser(hamlet, cordelia, { avatarUrl: (u) => `https://cdn.test/${u.user_id}.png` }).avatar_url).toBe('https://cdn.test/10.png'));

  it('/users/me adds max_message_id when known', () => {
    expect(formatOwnUser(hamlet, actor(10, 'member'), { maxMessageId: 42 })).toMatchObject({ delivery_email: 'hamlet@acme.test', max_message_id: 42 });
    expect(formatOwnUser(hamlet, actor(10, 'member'))).not.toHaveProperty('max_message_id');
  });

  it('derives the request\'s actor from the account', () =>
    expect(actorFromUser(helper)).toEqual({ realmId: 1, userId: 20, role: 'member', isBot: true }));
});
