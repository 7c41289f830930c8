import { Command } from '@nestjs/cqrs';
import type { NarrowParameter } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** Which flag to add or remove, as sent (checked by checkFlagChange). */
export type FlagChangeRequest = { op: string; flag: string };

export type UpdateMessageFlagsResult = { messages: number[]; ignored_because_not_subscribed_channels?: number[] };

export type FlagsForNarrowResult = {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
  ignored_because_not_subscribed_channels?: number[];
};

/** POST /messages/flags (update_message_flags): `messages` echoes the ids processed. */
export class UpdateMessageFlagsCommand extends Command<UpdateMessageFlagsResult> {
  constructor(
    readonly context: CommandContext,
    readonly request: FlagChangeRequest & { messages: number[] },
  ) {
    super();
  }
}

/** POST /messages/flags/narrow (update_message_flags_for_narrow). */
export class UpdateMessageFlagsForNarrowCommand extends Command<FlagsForNarrowResult> {
  constructor(
    readonly context: CommandContext,
    readonly request: FlagChangeRequest & { anchor: string; includeAnchor?: boolean; numBefore: number; numAfter: number; narrow: NarrowParameter[] },
  ) {
    super();
  }
}

/** POST /mark_all_as_read (do_mark_all_as_read); Zulip answers `complete: true` when it finished in time. */
export class MarkAllAsReadCommand extends Command<{ complete: boolean }> {
  constructor(readonly context: CommandContext) {
    super();
  }
}

/** POST /mark_stream_as_read (do_mark_stream_messages_as_read). */
export class MarkChannelAsReadCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly streamId: number,
  ) {
    super();
  }
}

/** POST /mark_topic_as_read: `topicName` as sent (`general chat` names the empty topic). */
export class MarkTopicAsReadCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly streamId: number,
    readonly topicName: string,
  ) {
    super();
  }
}
