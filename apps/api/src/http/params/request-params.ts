/**
 * The parameters of one request, from the query string and the body (form or multipart), for
 * every method. As in Zulip, a body value wins over a query value of the same name. Records which
 * names an endpoint read, for `ignored_parameters_unsupported`.
 */
export class RequestParams {
  private readonly consumed = new Set<string>();

  constructor(
    private readonly body: ReadonlyMap<string, string>,
    private readonly query: ReadonlyMap<string, string>,
  ) {}

  static fromRequest(query: unknown, body: unknown): RequestParams {
    return new RequestParams(toMap(body), toMap(query));
  }

  has(name: string): boolean {
    return this.body.has(name) || this.query.has(name);
  }

  /** The raw text of a parameter, marking it as read. */
  take(name: string): string | undefined {
    this.consumed.add(name);
    return this.body.has(name) ? this.body.get(name) : this.query.get(name);
  }

  markConsumed(name: string): void {
    this.consumed.add(name);
  }

  names(): string[] {
    const names = [...this.body.keys()];
    for (const name of this.query.keys()) if (!this.body.has(name)) names.push(name);
    return names;
  }

  /** Names sent but never read by the endpoint, sorted (Zulip's ignored_parameters_unsupported). */
  ignored(): string[] {
    if (this.body.size === 0 && this.query.size === 0) return [];
    return this.names().filter((n) => !this.consumed.has(n)).sort();
  }
}

/** Shared by every request without parameters of a kind: never written (see toMap's callers). */
const NONE: ReadonlyMap<string, string> = new Map();

/** Query and form objects may repeat a key (`a=1&a=2`); as with Django's QueryDict[key], the last wins. */
function toMap(source: unknown): ReadonlyMap<string, string> {
  if (source === null || typeof source !== 'object') return NONE;
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    if (typeof value === 'string') map.set(key, value);
    else if (Array.isArray(value) && value.length > 0) map.set(key, String(value[value.length - 1]));
    else if (value !== undefined && value !== null && typeof value !== 'object') map.set(key, String(value));
  }
  return map;
}
