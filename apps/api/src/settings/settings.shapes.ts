import { type SettingSpec, isRecognizedTimezone } from '@app/domain';
import type { TargetUsers } from '@app/application';
import { type Shape, shapes } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';

const fail = (message: string): never => {
  throw new InvalidParamError(message);
};

/** typed_endpoint's wording of an AfterValidator's ValueError. */
const notInList = (name: string) => `Invalid ${name}: Value error, Not in the list of possible values`;

/** `Json[int]` restricted to choices (check_int_in_validator). */
export const intIn = (choices: readonly number[]): Shape<number> => ({
  describe: { type: 'integer', enum: choices },
  parse: (value, p) => {
    const n = shapes.int().parse(value, p);
    return choices.includes(n) ? n : fail(notInList(p));
  },
});

/** A literal string restricted to choices (check_string_in_validator). */
export const stringIn = (choices: readonly string[]): Shape<string> => ({
  describe: { type: 'string', enum: choices },
  parse: (value, p) => (typeof value === 'string' && choices.includes(value) ? value : fail(notInList(p))),
});

/** parse_enum_from_string_value: "Invalid <name>". */
export const enumName = (choices: readonly string[]): Shape<string> => ({
  describe: { type: 'string', enum: choices },
  parse: (value, p) => (typeof value === 'string' && choices.includes(value) ? value : fail(`Invalid ${p}`)),
});

/** timezone_validator. */
export const timezone: Shape<string> = {
  describe: { type: 'string', description: 'An IANA time zone name.' },
  parse: (value, p) => (typeof value === 'string' && isRecognizedTimezone(value) ? value : fail(`Invalid ${p}: Value error, Not a recognized time zone`)),
};

/** The shape of one catalog setting on the wire: booleans and integers are JSON; strings are literal. */
export function settingShape(name: string, spec: SettingSpec): { encoding: 'json' | 'string'; shape: Shape<unknown> } {
  if (spec.type === 'bool') return { encoding: 'json', shape: shapes.bool() };
  if (spec.type === 'int') return { encoding: 'json', shape: spec.choices ? intIn(spec.choices) : shapes.int() };
  if (!spec.choices) return { encoding: 'string', shape: shapes.string() };
  return { encoding: 'string', shape: name === 'resolved_topic_notice_auto_read_policy' ? enumName(spec.choices) : stringIn(spec.choices) };
}

/** pydantic's wording for a missing field of a model (as in Zulip's tests since the typed_endpoint move). */
const missing = (path: string) => `${path} field is missing: Field required`;
const at = (base: string, key: string) => `${base}[${JSON.stringify(key)}]`;

/** TargetUsersData: `user_ids` and `group_ids` (default empty), `skip_if_already_edited` required. Other keys are ignored. */
export const targetUsers: Shape<TargetUsers> = {
  describe: {
    type: 'object',
    properties: { user_ids: { type: 'array', items: { type: 'integer' } }, group_ids: { type: 'array', items: { type: 'integer' } }, skip_if_already_edited: { type: 'boolean' } },
    required: ['skip_if_already_edited'],
  },
  parse: (value, p) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`${p} is not a dict`);
    const input = value as Record<string, unknown>;
    const userIds = input.user_ids === undefined ? [] : shapes.list(shapes.int()).parse(input.user_ids, at(p, 'user_ids'));
    const groupIds = input.group_ids === undefined ? [] : shapes.list(shapes.int()).parse(input.group_ids, at(p, 'group_ids'));
    if (input.skip_if_already_edited === undefined) return fail(missing(at(p, 'skip_if_already_edited')));
    const skipIfAlreadyEdited = shapes.bool().parse(input.skip_if_already_edited, at(p, 'skip_if_already_edited'));
    return { userIds, groupIds, skipIfAlreadyEdited };
  },
};
