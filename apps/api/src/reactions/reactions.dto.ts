import { StringParam } from '../http/params/param.decorators';

/** POST /messages/{message_id}/reactions (add_reaction). */
export class AddReactionDto {
  @StringParam({ description: 'The emoji\'s name; alone, its code and type are looked up (custom emoji first, then `zulip`, then Unicode).' })
  emoji_name!: string;

  @StringParam({ optional: true, description: 'The emoji in the namespace of reaction_type: hex code points, a custom emoji id, or `zulip`.' })
  emoji_code?: string;

  @StringParam({ optional: true, description: 'unicode_emoji, realm_emoji or svc_extra_emoji (zulip_extra_emoji accepted).' })
  reaction_type?: string;
}

/** DELETE /messages/{message_id}/reactions (remove_reaction): emoji_name or emoji_code. */
export class RemoveReactionDto {
  @StringParam({ optional: true, description: 'The emoji\'s name (its code is looked up when emoji_code is absent).' })
  emoji_name?: string;

  @StringParam({ optional: true, description: 'The emoji in the namespace of reaction_type.' })
  emoji_code?: string;

  @StringParam({ optional: true, description: 'unicode_emoji (default), realm_emoji or svc_extra_emoji (zulip_extra_emoji accepted).' })
  reaction_type?: string;
}
