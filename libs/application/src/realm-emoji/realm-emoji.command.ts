import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** A file of the multipart body. */
export type UploadedFile = { size: number; data: Buffer };

/** `POST /realm/emoji/{emoji_name}` (upload_emoji): the request's files, exactly one of which is wanted. */
export class AddRealmEmojiCommand extends Command<{ emojiId: number }> {
  constructor(
    readonly context: CommandContext,
    readonly name: string,
    readonly files: UploadedFile[],
  ) {
    super();
  }
}

/** `DELETE /realm/emoji/{emoji_name}` (delete_emoji): deactivates the active emoji of that name. */
export class RemoveRealmEmojiCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly name: string,
  ) {
    super();
  }
}
