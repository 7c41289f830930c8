import { codePointLength, pythonStrip } from '@app/domain';
import type { Shape } from './json-shapes';
import { InvalidParamError } from './param.errors';

/**
 * Zulip's RequiredStringConstraint / StringConstraints(strip_whitespace=True, min_length=1,
 * max_length=N): the value is stripped first, then "x cannot be blank" when nothing is left, then
 * "x is too long (limit: N characters)". The stripped value is what the endpoint receives.
 */
export const requiredString = (options: { maxLength?: number } = {}): Shape<string> => ({
  describe: { type: 'string', minLength: 1, ...(options.maxLength ? { maxLength: options.maxLength } : {}) },
  parse: (value, p) => {
    if (typeof value !== 'string') throw new InvalidParamError(`${p} is not a string`);
    const stripped = pythonStrip(value);
    if (stripped.length === 0) throw new InvalidParamError(`${p} cannot be blank`);
    if (options.maxLength !== undefined && codePointLength(stripped) > options.maxLength) {
      throw new InvalidParamError(`${p} is too long (limit: ${options.maxLength} characters)`);
    }
    return stripped;
  },
});
