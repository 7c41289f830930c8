import { DomainError, NotFoundError } from '../shared/domain-error';

/** The JsonableErrors of zerver/views/realm_emoji.py and zerver/lib/emoji.py. */
export class RealmEmojiError extends DomainError {}

/** delete_emoji: no active emoji of that name (ResourceNotFoundError: BAD_REQUEST with HTTP 404 since feature level 190). */
export class RealmEmojiNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`Emoji '${name}' does not exist`);
  }
}

/** zerver/lib/upload: an image of a type Zulip does not accept for emoji (BadImageError). */
export class InvalidEmojiImageError extends DomainError {
  constructor() {
    super('Invalid image format', 'BAD_IMAGE');
  }
}
