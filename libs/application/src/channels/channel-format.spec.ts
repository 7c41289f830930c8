import { defaultChannelGroupSettings, SYSTEM_GROUP_NAMES } from '@app/domain';
import type { ChannelDocument } from './channel.documents';
import { compareChannelNames, formatStream, streamPostPolicy } from './channel-format';
import { ConventionalSystemGroupIds, conventionalSystemGroupId } from '../shared/system-group-ids';

const channel: ChannelDocument = {
  stream_id: 3, realm_id: 2, name: 'design', name_key: 'design', description: 'd', rendered_description: '<p>d</p>', invite_only: false,
  is_web_public: false, history_public_to_subscribers: true, date_created: 1767225600, creator_id: 10, is_archived: false, subscriber_count: 4,
  group_settings: defaultChannelGroupSettings(10),
};

describe('formatStream', () => {
  it('turns symbolic group settings into the organization\'s group ids and the creator\'s anonymous group', async () => {
    const groupIds = await new ConventionalSystemGroupIds().forRealm(2);
    const stream = formatStream(channel, { groupIds, subscriberCount: 3 });
    expect(stream).toMatchObject({
      stream_id: 3, name: 'design', subscriber_count: 3, stream_post_policy: 1, is_announcement_only: false,
      can_send_message_group: groupIds['role:everyone'], can_remove_subscribers_group: groupIds['role:administrators'],
      can_subscribe_group: groupIds['role:nobody'], can_administer_channel_group: { direct_members: [10], direct_subgroups: [] },
    });
    expect(stream).not.toHaveProperty('realm_id');
    expect(stream).not.toHaveProperty('group_settings');
  });

  it('maps can_send_message_group to the legacy stream_post_policy', () => {
    expect(streamPostPolicy({ system: 'role:everyone' })).toBe(1);
    expect(streamPostPolicy({ system: 'role:administrators' })).toBe(2);
    expect(streamPostPolicy({ system: 'role:fullmembers' })).toBe(3);
    expect(streamPostPolicy({ system: 'role:moderators' })).toBe(4);
    expect(streamPostPolicy({ direct_members: [1], direct_subgroups: [] })).toBe(1);
  });
});

describe('conventional system group ids', () => {
  it('gives each organization eight consecutive ids, in Zulip\'s creation order', () => {
    expect(SYSTEM_GROUP_NAMES.map((name) => conventionalSystemGroupId(1, name))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(conventionalSystemGroupId(2, 'role:owners')).toBe(9);
  });
});

describe('compareChannelNames', () => {
  it('orders by code point, as Python sorts strings', () => {
    expect(['b', 'B', 'a', '\u{1f600}', '\uff21'].map((name) => ({ name })).sort(compareChannelNames).map((c) => c.name)).toEqual([
      'B', 'a', 'b', '\uff21', '\u{1f600}',
    ]);
  });
});
