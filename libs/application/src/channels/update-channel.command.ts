import { Command } from '@nestjs/cqrs';
import type { ChannelTopicsPolicy } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type ChannelChanges = {
  newName?: string;
  description?: string;
  isPrivate?: boolean;
  historyPublicToSubscribers?: boolean;
  isWebPublic?: boolean;
  /** `is_archived`: false unarchives; true is ignored, as Zulip ignores it (DELETE archives). */
  isArchived?: boolean;
  topicsPolicy?: ChannelTopicsPolicy;
  /** `is_default_stream`. */
  isDefault?: boolean;
  /** `message_retention_days`: days, "unlimited" or "realm_default" (owners only). */
  messageRetentionDays?: number | string;
};

/** `PATCH /streams/{stream_id}` (update_stream_backend): every change of one request in one append. */
export class UpdateChannelCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly channelId: number,
    readonly changes: ChannelChanges,
  ) {
    super();
  }
}
