import { RouteNotFoundError } from './api.errors';

/**
 * An integer path parameter (Zulip's `<int:…>` URL converters): anything else does not match the
 * route, so it is a 404 like an unknown path. Ids beyond any we allocate still parse, and are
 * answered by the endpoint's own "No such …" error.
 */
export function intPathParam(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw new RouteNotFoundError();
  return Number(value);
}
