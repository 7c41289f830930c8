import { realmCreated, recorded, replay } from '@app/testing';
import type { RealmSettingsEvent } from '@app/domain';
import { realmGroupSettingsOf, realmMessagingSettingsOf, type RealmDocument } from '@app/application';
import { realmsProjection } from './realms.projection';

const AT = '2026-04-01T12:00:00.000Z';
const realmAfter = (events: RealmSettingsEvent[]) =>
  replay(realmsProjection, [...recorded([realmCreated({ name: 'Acme', description: '' })], 'realm_registry-server'), ...recorded(events, 'realm-1')]).get('1') as RealmDocument;

describe('realmsProjection: the messaging settings of PATCH /realm', () => {
  it('keeps Zulip\'s defaults until a setting changes', () => {
    const realm = realmAfter([]);
    expect(realmMessagingSettingsOf(realm)).toEqual({
      allow_message_editing: true, message_content_edit_limit_seconds: 600, message_content_delete_limit_seconds: 600, move_messages_within_stream_limit_seconds: 604800,
      move_messages_between_streams_limit_seconds: 604800, topics_policy: 'allow_empty_topic', enable_read_receipts: true,
      moderation_request_channel_id: -1, email_changes_disabled: false, message_retention_days: -1, // unlimited, as Zulip's /register says it
    });
    expect(realmGroupSettingsOf(realm)).toEqual({
      can_create_groups: 'role:members', can_manage_all_groups: 'role:owners',
      can_delete_any_message_group: 'role:administrators', can_delete_own_message_group: 'role:everyone',
      can_mention_many_users_group: 'role:administrators', can_move_messages_between_channels_group: 'role:members',
      can_move_messages_between_topics_group: 'role:everyone', can_resolve_topics_group: 'role:everyone', direct_message_permission_group: 'role:everyone',
      direct_message_initiator_group: 'role:everyone',
      can_set_topics_policy_group: 'role:members', can_invite_users_group: 'role:members', create_multiuse_invite_group: 'role:administrators',
    });
  });

  it('applies property and group-setting changes, the name and description staying where they were', () => {
    const realm = realmAfter([
      { type: 'RealmPropertyChanged', data: { realmId: 1, property: 'message_content_edit_limit_seconds', oldValue: 600, newValue: null, actorId: 1, at: AT } },
      { type: 'RealmGroupSettingChanged', data: { realmId: 1, setting: 'can_mention_many_users_group', oldValue: 'role:administrators', newValue: 'role:everyone', actorId: 1, at: AT } },
    ]);
    expect(realm).toMatchObject({ name: 'Acme', messaging_settings: { message_content_edit_limit_seconds: null }, group_settings: { can_mention_many_users_group: 'role:everyone' } });
    expect(realmMessagingSettingsOf(realm).message_content_edit_limit_seconds).toBeNull();
    expect(realmGroupSettingsOf(realm).can_mention_many_users_group).toBe('role:everyone');
  });

  it('keeps the moderation request channel, and its disabling (-1)', () => {
    const set = { type: 'RealmPropertyChanged' as const, data: { realmId: 1, property: 'moderation_request_channel_id' as const, oldValue: -1, newValue: 20, actorId: 1, at: AT } };
    expect(realmMessagingSettingsOf(realmAfter([set])).moderation_request_channel_id).toBe(20);
    const unset = { ...set, data: { ...set.data, oldValue: 20, newValue: -1 } };
    expect(realmMessagingSettingsOf(realmAfter([set, unset])).moderation_request_channel_id).toBe(-1);
  });
});
