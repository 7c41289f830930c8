import { Command } from '@nestjs/cqrs';
import type { MessageTypeParam } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** The request's `to`: a channel id, or user ids (JSON `int | list[int]`). */
export type ScheduledTo = number | number[];

/** POST /scheduled_messages (create_scheduled_message_backend). */
export class ScheduleMessageCommand extends Command<{ scheduled_message_id: number }> {
  constructor(
    readonly context: CommandContext,
    readonly request: {
      type: MessageTypeParam;
      to: ScheduledTo;
      topic?: string;
      content: string;
      scheduledDeliveryTimestamp: number;
      readBySender?: boolean;
      client: string;
    },
  ) {
    super();
  }
}

/** PATCH /scheduled_messages/{id} (update_scheduled_message_backend): every field optional. */
export class EditScheduledMessageCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly scheduledMessageId: number,
    readonly request: { type?: MessageTypeParam; to?: ScheduledTo; topic?: string; content?: string; scheduledDeliveryTimestamp?: number; client: string },
  ) {
    super();
  }
}

/** DELETE /scheduled_messages/{id}. */
export class DeleteScheduledMessageCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly scheduledMessageId: number,
  ) {
    super();
  }
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'skipped';

/** The scheduler's job: deliver one scheduled message if it is due (idempotent). */
export class DeliverScheduledMessageCommand extends Command<DeliveryOutcome> {
  constructor(readonly scheduledMessageId: number) {
    super();
  }
}
