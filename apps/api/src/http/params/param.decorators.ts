import 'reflect-metadata';
import { type Shape, shapes } from './json-shapes';
import { requiredString } from './required-string.shape';

/**
 * How a parameter travels, following Zulip's typed_endpoint: `string` parameters are taken
 * literally; every other type is JSON text (`Json[int]`, `Json[bool]`, `Json[list[int]]`, …).
 */
export type ParamSpec = {
  /** Property of the DTO. */
  property: string;
  /** Name on the wire. */
  name: string;
  /** Deprecated names accepted too (`subject` for `topic`); giving two of them is an error. */
  aliases: string[];
  required: boolean;
  /** `string`: literal text; `json`: JSON text checked against `shape`. */
  encoding: 'string' | 'json';
  shape: Shape<unknown>;
  description?: string;
};

const PARAMS = Symbol('zulip:params');

export function getParamSpecs(dto: Function): ParamSpec[] {
  return (Reflect.getMetadata(PARAMS, dto.prototype) as ParamSpec[] | undefined) ?? [];
}

type CommonOptions = { name?: string; aliases?: string[]; optional?: boolean; description?: string };

function register(encoding: ParamSpec['encoding'], shape: Shape<unknown>, options: CommonOptions) {
  return (target: object, property: string | symbol) => {
    const existing = (Reflect.getMetadata(PARAMS, target) as ParamSpec[] | undefined) ?? [];
    const spec: ParamSpec = {
      property: String(property),
      name: options.name ?? String(property),
      aliases: options.aliases ?? [],
      required: !options.optional,
      encoding,
      shape,
      description: options.description,
    };
    Reflect.defineMetadata(PARAMS, [...existing.filter((s) => s.property !== spec.property), spec], target);
  };
}

/** A literal string parameter. */
export const StringParam = (options: CommonOptions & { maxLength?: number } = {}) =>
  register('string', shapes.string({ maxLength: options.maxLength }), options);

/** A literal string that must be one of `allowed` ("Invalid x" otherwise). */
export const EnumParam = (allowed: readonly string[], options: CommonOptions = {}) =>
  register('string', shapes.literal(allowed), options);

/** `Json[int]`. */
export const IntParam = (options: CommonOptions & { min?: number; max?: number } = {}) =>
  register('json', shapes.int({ min: options.min, max: options.max }), options);

/** `Json[bool]`. */
export const BoolParam = (options: CommonOptions = {}) => register('json', shapes.bool(), options);

/** Any JSON value checked by a shape: lists, objects, unions. */
export const JsonParam = (shape: Shape<unknown>, options: CommonOptions = {}) => register('json', shape, options);

/** A literal string, stripped, that must not be blank (Zulip's RequiredStringConstraint, with an optional limit). */
export const RequiredStringParam = (options: CommonOptions & { maxLength?: number } = {}) =>
  register('string', requiredString({ maxLength: options.maxLength }), options);

/** A literal string parameter checked by a shape (choices, formats) with the shape's own messages. */
export const CheckedStringParam = (shape: Shape<string>, options: CommonOptions = {}) => register('string', shape, options);

/** A parameter whose raw text a shape reads itself (a value clients send either as JSON or as bare text). */
export const TextParam = (shape: Shape<unknown>, options: CommonOptions = {}) => register('string', shape, options);
