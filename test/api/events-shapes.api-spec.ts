import { ApiTestClient, expectSuccess } from '../support';
import { coverageWorkload, randomWorkload } from '../replay/workload';

/**
 * Every event the server sends, held against the shapes zerver/openapi/zulip.yaml documents for
 * GET /events (each event schema there has `additionalProperties: false`): queues registered for
 * every event type by five users of different roles, then the replay suites' coverage workload
 * (which makes every kind of change the product records) and a random one, plus typing. Each
 * event's keys must be among those documented for its type and op, with the required ones present.
 */
const COMMON = ['id', 'type', 'op'];
/** type/op → [required keys, optional keys] (beyond id, type, op). */
const DOCUMENTED: Record<string, [string[], string[]]> = {
  'attachment/add': [['attachment', 'upload_space_used'], []],
  'attachment/update': [['attachment', 'upload_space_used'], []],
  'attachment/remove': [['attachment', 'upload_space_used'], []],
  'channel_folder/add': [['channel_folder'], []],
  'channel_folder/update': [['channel_folder_id', 'data'], []],
  'channel_folder/reorder': [['order'], []],
  'custom_profile_fields/': [['fields'], []],
  'delete_message/': [['message_type'], ['message_ids', 'message_id', 'stream_id', 'topic']],
  'drafts/add': [['drafts'], []],
  'drafts/update': [['draft'], []],
  'drafts/remove': [['draft_id'], []],
  'message/': [['message', 'flags'], ['local_message_id']],
  'muted_topics/': [['muted_topics'], []],
  'muted_users/': [['muted_users'], []],
  'realm/deactivated': [['realm_id'], []],
  'realm/update': [['property', 'value'], ['extra_data']],
  'realm/update_dict': [['property', 'data'], []],
  'realm_emoji/update': [['realm_emoji'], []],
  'realm_emoji/add': [['emoji'], []],
  'realm_emoji/update_one': [['emoji_id', 'data'], []],
  'realm_bot/add': [['bot'], []],
  'realm_bot/update': [['bot'], []],
  'realm_bot/delete': [['bot'], []],
  'realm_user/add': [['person'], []],
  'realm_user/update': [['person'], []],
  'realm_user/remove': [['person'], []],
  'saved_snippets/add': [['saved_snippet'], []],
  'saved_snippets/update': [['saved_snippet'], []],
  'saved_snippets/remove': [['saved_snippet_id'], []],
  'scheduled_messages/add': [['scheduled_messages'], []],
  'scheduled_messages/update': [['scheduled_message'], []],
  'scheduled_messages/remove': [['scheduled_message_id'], []],
  'stream/create': [['streams'], []],
  'stream/delete': [['streams', 'stream_ids'], []],
  'stream/update': [['stream_id', 'name', 'property', 'value'], ['rendered_description', 'history_public_to_subscribers', 'is_web_public']],
  'subscription/add': [['subscriptions'], []],
  'subscription/remove': [['subscriptions'], []],
  'subscription/update': [['stream_id', 'property', 'value'], []],
  'subscription/peer_add': [['stream_ids', 'user_ids'], []],
  'subscription/peer_remove': [['stream_ids', 'user_ids'], []],
  'typing/start': [['message_type', 'sender'], ['recipients', 'stream_id', 'topic']],
  'typing/stop': [['message_type', 'sender'], ['recipients', 'stream_id', 'topic']],
  'update_message/': [
    ['user_id', 'edit_timestamp', 'message_id', 'message_ids', 'flags', 'rendering_only'],
    ['stream_name', 'stream_id', 'new_stream_id', 'propagate_mode', 'orig_subject', 'subject', 'topic_links', 'orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message'],
  ],
  'update_message_flags/add': [['op', 'operation', 'flag', 'messages', 'all'], []],
  'update_message_flags/remove': [['op', 'operation', 'flag', 'messages', 'all'], ['message_details']],
  'user_settings/update': [['property', 'value'], ['language_name']],
  'user_status/': [['user_id'], ['away', 'status_text', 'emoji_name', 'emoji_code', 'reaction_type']],
  'user_topic/': [['stream_id', 'topic_name', 'last_updated', 'visibility_policy'], []],
  // The areas other parts of issue #20 add (reactions, presence, user groups, alert words, linkifiers).
  'reaction/add': [['message_id', 'emoji_name', 'emoji_code', 'reaction_type', 'user_id'], ['user']],
  'reaction/remove': [['message_id', 'emoji_name', 'emoji_code', 'reaction_type', 'user_id'], ['user']],
  'submessage/': [['msg_type', 'content', 'message_id', 'sender_id', 'submessage_id'], []],
  'presence/': [[], ['user_id', 'email', 'server_timestamp', 'presence', 'presences']],
  'user_group/add': [['group'], []],
  'user_group/update': [['group_id', 'data'], []],
  'user_group/add_members': [['group_id', 'user_ids'], []],
  'user_group/remove_members': [['group_id', 'user_ids'], []],
  'user_group/add_subgroups': [['group_id', 'direct_subgroup_ids'], []],
  'user_group/remove_subgroups': [['group_id', 'direct_subgroup_ids'], []],
  'user_group/remove': [['group_id'], []],
  'alert_words/': [['alert_words'], []],
  'realm_linkifiers/': [['realm_linkifiers'], []],
  'realm_filters/': [['realm_filters'], []],
  'realm_playgrounds/': [['realm_playgrounds'], []],
  'default_streams/': [['default_streams'], []],
  // Client devices (feature level 468): only device_id is required of an update.
  'device/add': [['device_id'], []],
  'device/remove': [['device_id'], []],
  'device/update': [['device_id'], ['push_key_id', 'push_token_id', 'pending_push_token_id', 'push_token_last_updated_timestamp', 'push_registration_error_code']],
};
/** The forms of realm_user/update's `person` (one per kind of change). */
const PERSON_UPDATES = [
  ['full_name'], ['avatar_url', 'avatar_source', 'avatar_url_medium', 'avatar_version'], ['email', 'timezone'], ['bot_owner_id'], ['role'],
  ['delivery_email'], ['custom_profile_field'], ['new_email'], ['is_active'],
].map((keys) => ['user_id', ...keys].sort().join(','));

describe('event shapes (zulip.yaml GET /events)', () => {
  let api: ApiTestClient;
  const events: Record<string, any>[] = [];
  beforeAll(async () => {
    api = await ApiTestClient.start({ config: { pushNotificationsBouncerUrl: 'https://push.example.com' } });
    const who = ['hamlet', 'iago', 'cordelia', 'desdemona', 'polonius'];
    const queues = new Map<string, string>();
    for (const name of who) {
      // Desdemona's client takes the single emoji changes of feature level 491, the others the whole dict.
      const individualEmoji = name === 'desdemona';
      queues.set(name, expectSuccess(await api.as(name).post('/api/v1/register', { client_capabilities: { stream_typing_notifications: true, user_settings_object: true, individual_emoji_changes: individualEmoji } })).queue_id);
    }
    await coverageWorkload(api);
    await randomWorkload(api, 1, 40);
    expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: JSON.stringify([api.user('cordelia').userId]) }));
    expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'stop', to: JSON.stringify([api.user('cordelia').userId]) }));
    for (const name of who) {
      const response = await api.as(name).get('/api/v1/events', { queue_id: queues.get(name), last_event_id: -1, dont_block: true });
      // A persona the workload deactivated has lost its queue with its account.
      if (response.status === 200) events.push(...response.body.events);
    }
  }, 120_000);
  afterAll(() => api.close());

  const kind = (e: Record<string, any>) => `${e.type}/${e.op ?? ''}`;

  it('the workload produced the common event types (the check below is not vacuous)', () => {
    const kinds = new Set(events.map(kind));
    for (const expected of ['message/', 'update_message/', 'delete_message/', 'update_message_flags/add', 'subscription/add', 'subscription/peer_add', 'stream/create', 'stream/update', 'realm_user/add', 'realm_user/update', 'realm/update', 'user_topic/', 'typing/start', 'typing/stop', 'realm_emoji/update', 'realm_emoji/add', 'realm_emoji/update_one', 'stream/delete', 'device/add', 'device/update', 'device/remove', 'realm_playgrounds/', 'default_streams/']) {
      expect([...kinds]).toContain(expected);
    }
  });

  it('every event has a documented type and op, its required keys and no undocumented key', () => {
    const problems: string[] = [];
    for (const event of events) {
      const documented = DOCUMENTED[kind(event)];
      if (!documented) {
        problems.push(`${kind(event)}: not a documented event`);
        continue;
      }
      const [required, optional] = documented;
      const allowed = new Set([...COMMON, ...required, ...optional]);
      for (const key of Object.keys(event)) if (!allowed.has(key)) problems.push(`${kind(event)}: undocumented key ${key}`);
      for (const key of required) if (!(key in event)) problems.push(`${kind(event)}: missing ${key}`);
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('realm_user updates carry one documented form of person', () => {
    const forms = events.filter((e) => kind(e) === 'realm_user/update').map((e) => Object.keys(e.person).sort().join(','));
    expect(forms.length).toBeGreaterThan(0);
    expect([...new Set(forms.filter((f) => !PERSON_UPDATES.includes(f)))]).toEqual([]);
  });

  it('update_message: content fields together or not at all, topic fields together or not at all, orig_subject for every move', () => {
    const edits = events.filter((e) => e.type === 'update_message');
    expect(edits.length).toBeGreaterThan(0);
    for (const e of edits) {
      const content = ['orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message'].filter((k) => k in e);
      expect([0, 5]).toContain(content.length);
      const topic = ['subject', 'topic_links'].filter((k) => k in e);
      expect([0, 2]).toContain(topic.length);
      // do_update_message: orig_subject whenever the channel or the topic changed.
      expect('orig_subject' in e).toBe(topic.length > 0 || 'new_stream_id' in e);
      if (topic.length > 0 || 'new_stream_id' in e) expect(e).toHaveProperty('propagate_mode');
      else expect(e).not.toHaveProperty('propagate_mode');
    }
  });
});
