import { DomainError } from '@app/domain';

/** At most this many parameters in the query string, and (separately) in a body. */
export const MAX_PARAMETERS = 1000;
/**
 * JSON-encoded parameters nest at most this deep. Zulip's deepest real shapes (a narrow, a list
 * of subscription objects with their properties) stay under 5 levels.
 */
export const MAX_JSON_DEPTH = 32;

/** Zulip's envelope for a request that breaks a bound: 400 BAD_REQUEST naming the bound. */
export class TooManyParametersError extends DomainError {
  constructor() {
    super(`Too many parameters (more than ${MAX_PARAMETERS})`, 'BAD_REQUEST', 400);
  }
}

export class JsonTooDeepError extends DomainError {
  constructor(name: string) {
    super(`${name} is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`, 'BAD_REQUEST', 400, { var_name: name });
  }
}

/**
 * Whether a URL's query string has more than MAX_PARAMETERS parameters; such requests are refused
 * with TooManyParametersError (configureHttp). Node's parser would silently drop the ones past its
 * own limit, which would make the request mean something else. Bodies are bounded by the body
 * parsers with the same number.
 */
export function hasTooManyQueryParameters(url: string): boolean {
  const at = url.indexOf('?');
  return at >= 0 && countPairs(url.slice(at + 1)) > MAX_PARAMETERS;
}

function countPairs(query: string): number {
  let count = 0;
  let start = 0;
  for (let i = 0; i <= query.length; i++) {
    if (i === query.length || query.charCodeAt(i) === 38 /* & */) {
      if (i > start) count++;
      start = i + 1;
    }
  }
  return count;
}

/**
 * Throws JsonTooDeepError if the JSON text nests arrays and objects deeper than MAX_JSON_DEPTH.
 * One linear scan before JSON.parse, so a megabyte of `[[[[…` costs a scan, not a deep parse.
 */
export function checkJsonDepth(raw: string, name: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) throw new JsonTooDeepError(name);
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
}
