import { isInteger, type Shape } from './json-shapes';
import { InvalidParamError } from './param.errors';

/**
 * `Json[int | str]` of message_retention_days (PATCH /realm, PATCH /streams/{id}, POST
 * /users/me/subscriptions): a positive integer or a special name; the value itself is checked by the
 * deciders (parse_message_retention_days, "Bad value for 'message_retention_days': …"). JSON null is
 * no value at all, as in Zulip.
 */
export const messageRetentionDaysShape = (specialNames: string[]): Shape<number | string | undefined> => ({
  describe: { oneOf: [{ type: 'integer', minimum: 1 }, ...specialNames.map((name) => ({ const: name }))] },
  parse: (value, p) => {
    if (value === null) return undefined;
    if (isInteger(value) || typeof value === 'string') return value;
    throw new InvalidParamError(`${p} is not an integer`);
  },
});
