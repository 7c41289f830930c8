import { checkJsonDepth } from '../request-limits';
import { ConfusingParamsError, InvalidParamError, MissingParamError } from './param.errors';
import { getParamSpecs, type ParamSpec } from './param.decorators';
import type { RequestParams } from './request-params';

/** Reads one parameter as Zulip's typed_endpoint does (aliases, JSON decoding, shape check). */
export function readParam(params: RequestParams, spec: ParamSpec): unknown {
  let used: string | undefined;
  let raw: string | undefined;
  if (params.has(spec.name)) {
    used = spec.name;
    raw = params.take(spec.name);
  }
  for (const name of spec.aliases) {
    if (!params.has(name)) continue;
    if (used !== undefined) throw new ConfusingParamsError(used, name);
    used = name;
    raw = params.take(name);
  }
  if (used === undefined || raw === undefined) {
    if (spec.required) throw new MissingParamError(spec.name);
    return undefined;
  }
  if (spec.encoding === 'string') {
    return spec.shape.parse(raw, used);
  }
  return spec.shape.parse(decodeJsonParam(raw, used), used);
}

/** A JSON-encoded parameter's value, or Zulip's "<name> is not valid JSON" (depth-checked first). */
export function decodeJsonParam(raw: string, name: string): unknown {
  checkJsonDepth(raw, name);
  try {
    return JSON.parse(raw);
  } catch {
    throw new InvalidParamError(`${name} is not valid JSON`);
  }
}

/** Builds a DTO instance from the request's parameters, or throws Zulip's parameter error. */
export function parseParams<T extends object>(dto: new () => T, params: RequestParams): T {
  const instance = new dto();
  for (const spec of getParamSpecs(dto)) {
    const value = readParam(params, spec);
    if (value !== undefined) (instance as Record<string, unknown>)[spec.property] = value;
  }
  return instance;
}
