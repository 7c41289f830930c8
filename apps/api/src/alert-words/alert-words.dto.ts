import { MAX_ALERT_WORD_LENGTH } from '@app/domain';
import { shapes } from '../http/params/json-shapes';
import { JsonParam } from '../http/params/param.decorators';

/** POST /users/me/alert_words (add_alert_words): `Json[list[str]]`, each at most 100 characters. */
export class AddAlertWordsDto {
  @JsonParam(shapes.list(shapes.string({ maxLength: MAX_ALERT_WORD_LENGTH })), { description: 'Words or phrases to add (JSON list); stripped, blanks ignored, case-insensitive duplicates skipped.' })
  alert_words!: string[];
}

/** DELETE /users/me/alert_words (remove_alert_words): `Json[list[str]]`. */
export class RemoveAlertWordsDto {
  @JsonParam(shapes.list(shapes.string()), { description: 'Words or phrases to remove (JSON list), matched ignoring case.' })
  alert_words!: string[];
}
