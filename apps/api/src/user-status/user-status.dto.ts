import { MAX_STATUS_TEXT_LENGTH, StatusTextTooLongError, checkStatusText } from '@app/domain';
import { BoolParam, CheckedStringParam, StringParam } from '../http/params/param.decorators';
import type { Shape } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';

/** StringConstraints(strip_whitespace=True, max_length=60): stripped first, then counted in code points. */
const statusText: Shape<string> = {
  describe: { type: 'string', maxLength: MAX_STATUS_TEXT_LENGTH },
  parse: (value, p) => {
    if (typeof value !== 'string') throw new InvalidParamError(`${p} is not a string`);
    try {
      return checkStatusText(value);
    } catch (error) {
      if (error instanceof StatusTextTooLongError) throw new InvalidParamError(error.message);
      throw error;
    }
  },
};

/** POST /users/{user_id}/status (administrators). */
export class UpdateUserStatusDto {
  @CheckedStringParam(statusText, { optional: true, description: 'At most 60 characters; empty clears the text.' })
  status_text?: string;

  @StringParam({ optional: true, description: 'Required with emoji_code or reaction_type; empty clears the emoji.' })
  emoji_name?: string;

  @StringParam({ optional: true, description: 'The emoji in the namespace of reaction_type.' })
  emoji_code?: string;

  @StringParam({ optional: true, description: 'unicode_emoji, realm_emoji or svc_extra_emoji (zulip_extra_emoji accepted).' })
  reaction_type?: string;
}

/** POST /users/me/status: also the deprecated `away` (the inverse of the presence_enabled setting). */
export class UpdateOwnUserStatusDto extends UpdateUserStatusDto {
  @BoolParam({ optional: true, description: 'Deprecated: turns the presence_enabled setting off (true) or on (false).' })
  away?: boolean;
}

