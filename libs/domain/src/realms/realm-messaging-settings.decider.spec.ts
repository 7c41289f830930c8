import { deciderSpec } from '@app/testing';
import {
  BadSettingValueError,
  GroupSettingNotAllowedError,
  InvalidUserGroupError,
  MustBeOwnerError,
  PreviousSettingValueMismatchedError,
  realmDecider,
  type RealmSettingsCommand,
  type RealmSettingsEvent,
  SYSTEM_GROUP_NAMES,
  type SystemGroupName,
} from '@app/domain';

/** The messaging settings of PATCH /realm on realm-<realmId> (Zulip's update_realm). */
const given = deciderSpec(realmDecider);
const NOW = '2026-04-01T12:00:00.000Z';
const IDS = Object.fromEntries(SYSTEM_GROUP_NAMES.map((name, i) => [name, i + 1])) as Record<SystemGroupName, number>;

type Data = Extract<RealmSettingsCommand, { type: 'ChangeRealmSettings' }>['data'];
const change = (settings: Partial<Pick<Data, 'messaging' | 'groups'>>): RealmSettingsCommand => ({
  type: 'ChangeRealmSettings',
  data: { realmId: 1, actorId: 2, actorRole: 'owner', now: NOW, registered: { name: 'Acme', description: '' }, systemGroupIds: IDS, ...settings },
});
const propertyChanged = (property: string, oldValue: unknown, newValue: unknown): RealmSettingsEvent =>
  ({ type: 'RealmPropertyChanged', data: { realmId: 1, property, oldValue, newValue, actorId: 2, at: NOW } }) as RealmSettingsEvent;
const groupChanged = (setting: string, oldValue: SystemGroupName, newValue: SystemGroupName): RealmSettingsEvent =>
  ({ type: 'RealmGroupSettingChanged', data: { realmId: 1, setting, oldValue, newValue, actorId: 2, at: NOW } }) as RealmSettingsEvent;

describe('realm decider: the settings messaging needs', () => {
  describe('properties', () => {
    it('starts from Zulip\'s defaults: editing allowed, 600 s to edit, 7 days to move, empty topics allowed', () =>
      given([])
        .when(change({ messaging: { allow_message_editing: true, message_content_edit_limit_seconds: 600, move_messages_within_stream_limit_seconds: 604800, move_messages_between_streams_limit_seconds: 604800, topics_policy: 'allow_empty_topic' } }))
        .thenNothingHappened());

    it('records each changed property with its old and new value', () =>
      given([])
        .when(change({ messaging: { allow_message_editing: false, message_content_edit_limit_seconds: 3600, topics_policy: 'disable_empty_topic' } }))
        .then([
          propertyChanged('message_content_edit_limit_seconds', 600, 3600),
          propertyChanged('allow_message_editing', true, false),
          propertyChanged('topics_policy', 'allow_empty_topic', 'disable_empty_topic'),
        ]));

    it('reads "unlimited" as no limit (null), and only once', () => {
      given([]).when(change({ messaging: { move_messages_between_streams_limit_seconds: 'unlimited' } }))
        .then([propertyChanged('move_messages_between_streams_limit_seconds', 604800, null)]);
      given([propertyChanged('move_messages_between_streams_limit_seconds', 604800, null)])
        .when(change({ messaging: { move_messages_between_streams_limit_seconds: 'unlimited' } }))
        .thenNothingHappened();
    });

    it.each([0, -1, 'forever', 'Unlimited'])('refuses the limit %j (parse_message_time_limit_setting)', (value) =>
      given([]).when(change({ messaging: { message_content_edit_limit_seconds: value } }))
        .thenThrows(BadSettingValueError, `Bad value for 'message_content_edit_limit_seconds': ${value}`));

    it('refuses everything when one value is bad: nothing of the request is recorded', () =>
      given([]).when(change({ messaging: { allow_message_editing: false, move_messages_within_stream_limit_seconds: 0 } }))
        .thenThrows(BadSettingValueError, "Bad value for 'move_messages_within_stream_limit_seconds': 0"));
  });

  describe('group settings', () => {
    it('defaults: administrators mention many users, members move between channels, everyone moves topics, resolves and sends DMs', () =>
      given([])
        .when(change({ groups: {
          can_mention_many_users_group: { new: IDS['role:administrators'] },
          can_move_messages_between_channels_group: { new: IDS['role:members'] },
          can_move_messages_between_topics_group: { new: IDS['role:everyone'] },
          can_resolve_topics_group: { new: IDS['role:everyone'] },
          direct_message_permission_group: { new: IDS['role:everyone'] },
        } }))
        .thenNothingHappened());

    it('changes a setting to another system group, by name', () =>
      given([]).when(change({ groups: { can_mention_many_users_group: { new: IDS['role:moderators'], old: IDS['role:administrators'] } } }))
        .then([groupChanged('can_mention_many_users_group', 'role:administrators', 'role:moderators')]));

    it('refuses a stale old value, even when new is the current value', () => {
      given([]).when(change({ groups: { can_resolve_topics_group: { new: IDS['role:members'], old: IDS['role:moderators'] } } }))
        .thenThrows(PreviousSettingValueMismatchedError, "'old' value does not match the expected value.");
      given([groupChanged('can_resolve_topics_group', 'role:everyone', 'role:members')])
        .when(change({ groups: { can_resolve_topics_group: { new: IDS['role:members'], old: IDS['role:everyone'] } } }))
        .thenThrows(PreviousSettingValueMismatchedError);
    });

    it('reduces an anonymous group of one subgroup to it, and an empty one to role:nobody', () => {
      given([]).when(change({ groups: { can_resolve_topics_group: { new: { direct_members: [], direct_subgroups: [IDS['role:moderators']] } } } }))
        .then([groupChanged('can_resolve_topics_group', 'role:everyone', 'role:moderators')]);
      given([]).when(change({ groups: { direct_message_permission_group: { new: { direct_members: [], direct_subgroups: [] } } } }))
        .then([groupChanged('direct_message_permission_group', 'role:everyone', 'role:nobody')]);
    });

    it('reserves the owner-only group settings for owners and the operator, whatever the value', () => {
      const asRole = (actorRole: 'administrator' | 'moderator' | 'owner' | 'operator', groups: Data['groups']): RealmSettingsCommand => {
        const command = change({ groups }) as Extract<RealmSettingsCommand, { type: 'ChangeRealmSettings' }>;
        return { ...command, data: { ...command.data, actorRole } };
      };
      for (const setting of ['can_create_groups', 'can_manage_all_groups'] as const) {
        given([]).when(asRole('administrator', { [setting]: { new: IDS['role:administrators'] } })).thenThrows(MustBeOwnerError, 'Must be an organization owner');
        given([]).when(asRole('administrator', { [setting]: { new: IDS[setting === 'can_create_groups' ? 'role:members' : 'role:owners'] } }))
          .thenThrows(MustBeOwnerError, 'Must be an organization owner');
      }
      given([]).when(asRole('owner', { can_create_groups: { new: IDS['role:administrators'] } })).then([groupChanged('can_create_groups', 'role:members', 'role:administrators')]);
      given([]).when(asRole('operator', { can_manage_all_groups: { new: IDS['role:administrators'] } })).then([groupChanged('can_manage_all_groups', 'role:owners', 'role:administrators')]);
      given([]).when(asRole('administrator', { can_resolve_topics_group: { new: IDS['role:members'] } })).then([groupChanged('can_resolve_topics_group', 'role:everyone', 'role:members')]);
    });

    it('refuses other anonymous groups (not stored by this server yet)', () =>
      given([]).when(change({ groups: { can_resolve_topics_group: { new: { direct_members: [7], direct_subgroups: [] } } } }))
        .thenThrows(GroupSettingNotAllowedError, "'can_resolve_topics_group' must be a system user group."));

    it('refuses a group that is not one of the organization\'s', () =>
      given([]).when(change({ groups: { can_resolve_topics_group: { new: 99 } } })).thenThrows(InvalidUserGroupError, 'Invalid user group'));

    it('refuses role:internet everywhere and role:everyone where guests must not be allowed', () => {
      given([]).when(change({ groups: { can_mention_many_users_group: { new: IDS['role:internet'] } } }))
        .thenThrows(GroupSettingNotAllowedError, "'can_mention_many_users_group' setting cannot be set to 'role:internet' group.");
      given([]).when(change({ groups: { can_move_messages_between_channels_group: { new: IDS['role:everyone'] } } }))
        .thenThrows(GroupSettingNotAllowedError, "'can_move_messages_between_channels_group' setting cannot be set to 'role:everyone' group.");
      given([]).when(change({ groups: { can_move_messages_between_channels_group: { new: IDS['role:nobody'] } } }))
        .then([groupChanged('can_move_messages_between_channels_group', 'role:members', 'role:nobody')]);
    });

    it('evolves the state so that the next change starts from the new group', () =>
      given([groupChanged('can_mention_many_users_group', 'role:administrators', 'role:everyone')])
        .when(change({ groups: { can_mention_many_users_group: { new: IDS['role:administrators'] } } }))
        .then([groupChanged('can_mention_many_users_group', 'role:everyone', 'role:administrators')]));
  });
});
