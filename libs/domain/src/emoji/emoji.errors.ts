import { DomainError } from '../shared/domain-error';

/** zerver/lib/emoji.py get_emoji_data. */
export class EmojiDoesNotExistError extends DomainError {
  constructor(name: string) {
    super(`Emoji '${name}' does not exist`);
  }
}

/** zerver/lib/emoji.py check_emoji_request, with its messages. */
export class InvalidEmojiError extends DomainError {
  static customEmoji = () => new InvalidEmojiError('Invalid custom emoji.');
  static customEmojiName = () => new InvalidEmojiError('Invalid custom emoji name.');
  static customEmojiDeactivated = () => new InvalidEmojiError('This custom emoji has been deactivated.');
  static invalidCode = () => new InvalidEmojiError('Invalid emoji code.');
  static invalidName = () => new InvalidEmojiError('Invalid emoji name.');
  static invalidType = () => new InvalidEmojiError('Invalid emoji type.');
  constructor(message: string) {
    super(message);
  }
}
