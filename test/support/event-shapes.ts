/**
 * The shapes zerver/openapi/zulip.yaml documents for the events of GET /events (each event schema
 * there has `additionalProperties: false`), for the suites that hold events against them:
 * test/api/events-shapes.api-spec.ts (every event type the product makes) and
 * test/api/event-completeness.api-spec.ts (the property test of live events).
 */
export const EVENT_COMMON_KEYS = ['id', 'type', 'op'];
/** type/op → [required keys, optional keys] (beyond id, type, op). */
export const DOCUMENTED_EVENTS: Record<string, [string[], string[]]> = {
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
  'invites_changed/': [[], []],
  'default_streams/': [['default_streams'], []],
  // Client devices (feature level 468): only device_id is required of an update.
  'device/add': [['device_id'], []],
  'device/remove': [['device_id'], []],
  'device/update': [['device_id'], ['push_key_id', 'push_token_id', 'pending_push_token_id', 'push_token_last_updated_timestamp', 'push_registration_error_code']],
};
/** The forms of realm_user/update's `person` (one per kind of change). */
export const PERSON_UPDATE_FORMS = [
  ['full_name'], ['avatar_url', 'avatar_source', 'avatar_url_medium', 'avatar_version'], ['email', 'timezone'], ['bot_owner_id'], ['role'],
  ['delivery_email'], ['custom_profile_field'], ['new_email'], ['is_active'],
].map((keys) => ['user_id', ...keys].sort().join(','));

/** An event's `type/op` (`type/` without an op), the key of DOCUMENTED_EVENTS. */
export const eventKind = (e: Record<string, any>): string => `${e.type}/${e.op ?? ''}`;

/**
 * What is wrong with one event's shape (empty: nothing): an undocumented type/op, a missing
 * required key, an undocumented key; a realm_user update's `person` of no documented form; and
 * the rules of update_message (do_update_message in zerver/actions/message_edit.py): the content
 * fields all or none; `subject` and `topic_links` together; `propagate_mode` and `orig_subject`
 * exactly when the message moved (its topic or its channel changed).
 */
export function eventShapeProblems(event: Record<string, any>): string[] {
  const kind = eventKind(event);
  const documented = DOCUMENTED_EVENTS[kind];
  if (!documented) return [`${kind}: not a documented event`];
  const problems: string[] = [];
  const [required, optional] = documented;
  const allowed = new Set([...EVENT_COMMON_KEYS, ...required, ...optional]);
  for (const key of Object.keys(event)) if (!allowed.has(key)) problems.push(`${kind}: undocumented key ${key}`);
  for (const key of required) if (!(key in event)) problems.push(`${kind}: missing ${key}`);
  if (kind === 'realm_user/update' && event.person && !PERSON_UPDATE_FORMS.includes(Object.keys(event.person).sort().join(','))) {
    problems.push(`${kind}: undocumented form of person (${Object.keys(event.person).sort().join(',')})`);
  }
  if (event.type === 'update_message') {
    const content = ['orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message'].filter((k) => k in event);
    if (content.length !== 0 && content.length !== 5) problems.push(`update_message: content fields ${content.join(',')} without the others`);
    if ('subject' in event !== 'topic_links' in event) problems.push('update_message: subject and topic_links not together');
    const moved = 'subject' in event || 'new_stream_id' in event;
    if (moved !== 'propagate_mode' in event) problems.push(`update_message: propagate_mode ${moved ? 'missing from a move' : 'on an edit that moved nothing'}`);
    // Zulip sends orig_subject with every move (zulip-flutter's UpdateMessageMoveData requires it).
    const origSubjectRequired = 'subject' in event || 'new_stream_id' in event;
    if (origSubjectRequired && !('orig_subject' in event)) problems.push(`update_message: orig_subject missing from a move${'subject' in event ? '' : ' between channels'}`);
    if ('orig_subject' in event && !moved) problems.push('update_message: orig_subject on an edit that moved nothing');
  }
  return problems;
}
