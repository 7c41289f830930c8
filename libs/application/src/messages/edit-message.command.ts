import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/**
 * PATCH /messages/{id}'s answer: what the message extensions add (MessageExtensions.editAnswer;
 * the uploads area's `detached_uploads`, Attachment summaries, see Resources).
 */
export type EditMessageResult = Record<string, unknown>;

/** PATCH /messages/{message_id} (zerver/views/message_edit.py update_message_backend). */
export class EditMessageCommand extends Command<EditMessageResult> {
  constructor(
    readonly context: CommandContext,
    readonly messageId: number,
    readonly request: {
      content?: string;
      topic?: string;
      streamId?: number;
      propagateMode: 'change_one' | 'change_later' | 'change_all';
      prevContentSha256?: string;
      sendNotificationToOldThread: boolean;
      sendNotificationToNewThread: boolean;
    },
  ) {
    super();
  }
}

/** DELETE /messages/{message_id} (zerver/views/message_edit.py delete_message_backend). */
export class DeleteMessageCommand extends Command<Record<string, never>> {
  constructor(
    readonly context: CommandContext,
    readonly messageId: number,
  ) {
    super();
  }
}

/** `POST /streams/{stream_id}/delete_topic` (delete_in_topic): answers whether every message went. */
export class DeleteTopicCommand extends Command<{ complete: boolean }> {
  constructor(
    readonly context: CommandContext,
    readonly streamId: number,
    readonly topicName: string,
  ) {
    super();
  }
}
