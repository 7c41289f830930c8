import { InvalidParamError } from './param.errors';

/**
 * Validators for JSON-typed parameters (lists, objects, unions), worded like Zulip's pydantic
 * errors: the path of the offending element is appended to the name, e.g. `to[1] is not an integer`.
 */
export type Shape<T> = { parse(value: unknown, path: string): T; describe: object };

const path = (base: string, key: string | number) => `${base}[${JSON.stringify(key)}]`;
const fail = (message: string): never => {
  throw new InvalidParamError(message);
};

export const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

export const shapes = {
  int: (options: { min?: number; max?: number } = {}): Shape<number> => ({
    describe: { type: 'integer', ...(options.min !== undefined ? { minimum: options.min } : {}), ...(options.max !== undefined ? { maximum: options.max } : {}) },
    parse: (value, p) => {
      if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) fail(`${p} is too large`);
      if (!isInteger(value)) return fail(`${p} is not an integer`);
      if (options.min !== undefined && value < options.min) fail(`${p} is too small`);
      if (options.max !== undefined && value > options.max) fail(`${p} is too large`);
      return value;
    },
  }),
  bool: (): Shape<boolean> => ({
    describe: { type: 'boolean' },
    parse: (value, p) => (typeof value === 'boolean' ? value : fail(`${p} is not a boolean`)),
  }),
  string: (options: { maxLength?: number } = {}): Shape<string> => ({
    describe: { type: 'string', ...(options.maxLength ? { maxLength: options.maxLength } : {}) },
    parse: (value, p) => {
      if (typeof value !== 'string') return fail(`${p} is not a string`);
      if (options.maxLength !== undefined && [...value].length > options.maxLength) fail(`${p} is too long (limit: ${options.maxLength} characters)`);
      return value;
    },
  }),
  literal: <T extends string | number>(allowed: readonly T[]): Shape<T> => ({
    describe: { enum: allowed },
    parse: (value, p) => ((allowed as readonly unknown[]).includes(value) ? (value as T) : fail(`Invalid ${p}`)),
  }),
  list: <T>(item: Shape<T>, options: { maxItems?: number } = {}): Shape<T[]> => ({
    describe: { type: 'array', items: item.describe },
    parse: (value, p) => {
      if (!Array.isArray(value)) return fail(`${p} is not a list`);
      if (options.maxItems !== undefined && value.length > options.maxItems) fail(`${p} is too long`);
      return value.map((v, i) => item.parse(v, path(p, i)));
    },
  }),
  dict: <T>(item: Shape<T>): Shape<Record<string, T>> => ({
    describe: { type: 'object', additionalProperties: item.describe },
    parse: (value, p) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`${p} is not a dict`);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, item.parse(v, path(p, k))]));
    },
  }),
  /** An object with known keys; unknown keys are an error, as with Zulip's strict models. */
  object: <T extends Record<string, unknown>>(fields: { [K in keyof T]: Shape<T[K]> }, optional: (keyof T)[] = []): Shape<T> => ({
    describe: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, (s as Shape<unknown>).describe])),
      required: Object.keys(fields).filter((k) => !optional.includes(k)),
    },
    parse: (value, p) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`${p} is not a dict`);
      const input = value as Record<string, unknown>;
      for (const key of Object.keys(input)) if (!(key in fields)) fail(`Argument "${key}" at ${p} is unexpected`);
      const out: Record<string, unknown> = {};
      for (const [key, shape] of Object.entries(fields) as [string, Shape<unknown>][]) {
        if (!(key in input) || input[key] === undefined) {
          if (optional.includes(key)) continue;
          fail(`${path(p, key)} field is missing`);
        }
        out[key] = shape.parse(input[key], path(p, key));
      }
      return out as T;
    },
  }),
  /** The first alternative that accepts the value wins; otherwise the last one's error stands. */
  union: <T>(...alternatives: Shape<T>[]): Shape<T> => ({
    describe: { oneOf: alternatives.map((a) => a.describe) },
    parse: (value, p) => {
      let lastError: unknown;
      for (const alternative of alternatives) {
        try {
          return alternative.parse(value, p);
        } catch (error) {
          lastError = error;
        }
      }
      throw lastError;
    },
  }),
  any: (): Shape<unknown> => ({ describe: {}, parse: (value) => value }),
};
