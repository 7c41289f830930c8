import { type GroupSettingChangeRequest, type GroupSettingValueInput, REALM_TOPICS_POLICIES, type RealmTopicsPolicy } from '@app/domain';
import { isInteger, type Shape, shapes } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';
import { messageRetentionDaysShape } from '../http/params/message-retention-days';
import { BoolParam, EnumParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';

/**
 * `Json[int | str] | None` of update_realm's time limits: a positive integer or "unlimited" (checked
 * by the decider, with Zulip's "Bad value for …"); JSON null is no value at all, as in Zulip.
 */
const timeLimit: Shape<number | string | undefined> = {
  describe: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'unlimited' }] },
  parse: (value, p) => {
    if (value === null) return undefined;
    if (isInteger(value) || typeof value === 'string') return value;
    throw new InvalidParamError(`${p} is not an integer`);
  },
};

const groupValue: Shape<GroupSettingValueInput> = shapes.union<GroupSettingValueInput>(
  shapes.int(),
  shapes.object<{ direct_members: number[]; direct_subgroups: number[] }>({
    direct_members: shapes.list(shapes.int()),
    direct_subgroups: shapes.list(shapes.int()),
  }),
);

/** GroupSettingChangeRequest `{"new": …, "old": …}`; a bare group id is read as `{"new": id}`. */
const groupSettingChange: Shape<GroupSettingChangeRequest> = shapes.union<GroupSettingChangeRequest>(
  { describe: { type: 'integer' }, parse: (value, p) => ({ new: shapes.int().parse(value, p) }) },
  shapes.object<GroupSettingChangeRequest>({ new: groupValue, old: groupValue }, ['old']),
);

const groupDescription = (what: string) =>
  `${what}: {"new": <system group id>, "old": <expected current id>} (old optional) or a system group id. Anonymous groups other than one subgroup or none are refused.`;

/** PATCH /realm (update_realm): the settings this server keeps. */
export class UpdateRealmDto {
  @BoolParam({ optional: true, description: 'Whether users may edit their messages.' })
  allow_message_editing?: boolean;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may create user groups (default role:members)') })
  can_create_groups?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may invite people by email (default role:members)') })
  can_invite_users_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may create multiuse invitation links (default role:administrators)') })
  create_multiuse_invite_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may manage every user group (default role:owners)') })
  can_manage_all_groups?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may delete any message (default role:administrators)') })
  can_delete_any_message_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may delete their own messages, within message_content_delete_limit_seconds (default role:everyone)') })
  can_delete_own_message_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may use wildcard mentions in large channels (default role:administrators)') })
  can_mention_many_users_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may move messages between channels (default role:members)') })
  can_move_messages_between_channels_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may move messages between topics (default role:everyone)') })
  can_move_messages_between_topics_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may resolve topics (default role:everyone)') })
  can_resolve_topics_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may set a channel\'s own topics_policy, besides administrators (default role:members)') })
  can_set_topics_policy_group?: GroupSettingChangeRequest;

  @BoolParam({ optional: true, description: 'Whether read receipts are available (GET /messages/{message_id}/read_receipts).' })
  enable_read_receipts?: boolean;

  @BoolParam({ optional: true, description: 'Whether members may not change their own email address (administrators always may).' })
  email_changes_disabled?: boolean;

  @StringParam({ optional: true, description: 'The organization\'s description (at most 1000 characters).' })
  description?: string;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Who may start a direct message conversation; others may only answer in an existing one (default role:everyone)') })
  direct_message_initiator_group?: GroupSettingChangeRequest;

  @JsonParam(groupSettingChange, { optional: true, description: groupDescription('Direct messages must include a member of this group (default role:everyone)') })
  direct_message_permission_group?: GroupSettingChangeRequest;

  @JsonParam(timeLimit, { optional: true, description: 'Seconds after sending during which senders may delete their messages: a positive integer or "unlimited" (default 600).' })
  message_content_delete_limit_seconds?: number | string;

  @JsonParam(timeLimit, { optional: true, description: 'Seconds after sending during which content may be edited: a positive integer or "unlimited".' })
  message_content_edit_limit_seconds?: number | string;

  @JsonParam(timeLimit, { optional: true, description: 'Seconds after sending during which messages may be moved between channels: a positive integer or "unlimited".' })
  move_messages_between_streams_limit_seconds?: number | string;

  @JsonParam(timeLimit, { optional: true, description: 'Seconds after sending during which messages may be moved between topics: a positive integer or "unlimited".' })
  move_messages_within_stream_limit_seconds?: number | string;

  @JsonParam(messageRetentionDaysShape(['unlimited']), {
    optional: true,
    description: 'Days messages are kept before the retention job deletes them: a positive integer or "unlimited" (owners only). Channels may override it.',
  })
  message_retention_days?: number | string;

  @IntParam({ optional: true, description: 'The private channel Notification Bot posts message reports to (POST /messages/{message_id}/report); -1 disables reporting.' })
  moderation_request_channel_id?: number;

  @StringParam({ optional: true, description: 'The organization\'s name (at most 40 characters).' })
  name?: string;

  @EnumParam(REALM_TOPICS_POLICIES, { optional: true, description: '"allow_empty_topic" or "disable_empty_topic".' })
  topics_policy?: RealmTopicsPolicy;
}
