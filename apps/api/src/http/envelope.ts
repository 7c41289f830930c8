import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { requestParams } from './params/params.decorator';

type Reply = (response: Response, body: unknown, statusCode?: number) => unknown;

/**
 * Wraps what an /api/v1 handler returns in Zulip's success envelope:
 * `{result: "success", msg: "", ...data}`, plus `ignored_parameters_unsupported` (sorted) when the
 * request carried parameters the endpoint did not read (feature level 167). Zulip answers every
 * success with 200, POST included (Nest would say 201).
 *
 * Done where Nest hands a handler's result to Express (the HTTP adapter's `reply`, which Nest
 * calls for a handler's result without a status of its own), not in a global interceptor: Nest
 * runs any interceptor through rxjs `defer`/`mergeAll` and two `AsyncResource.bind` per request,
 * about a tenth of a trivial request's CPU (issue #23, docs/benchmarks.md). Errors never pass here:
 * ApiExceptionFilter writes them itself. Handlers that write the response themselves (`@Res()`)
 * never pass here either.
 */
export function answerInTheEnvelope(app: NestExpressApplication): void {
  const adapter = app.getHttpAdapter() as unknown as { reply: Reply };
  const reply = adapter.reply.bind(adapter) as Reply;
  adapter.reply = (response: Response, body: unknown, statusCode?: number) => {
    const request = response.req as Request;
    if (statusCode !== undefined || !request.path.startsWith('/api/v1/') || request.path === '/api/v1/openapi.json') return reply(response, body, statusCode);
    response.status(200);
    if (!writesItselfAsExpressWould(request, response)) return reply(response, envelope(request, body));
    const json = body instanceof SerializedResult ? envelopeJson(request, body) : JSON.stringify(envelope(request, body));
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json, 'utf8'));
    if (request.method === 'HEAD') response.end();
    else response.end(json, 'utf8');
    return response;
  };
}

/** What Express's `res.json` settles on for an object (its type, with the charset `res.send` adds). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Whether the envelope may be written without Express's `res.json`/`res.send`, which for a JSON
 * object with this app's settings (no ETag, no JSON replacer, spaces or escaping) come down to the
 * same status, the same two headers and the same bytes, after parsing and re-formatting the
 * Content-Type twice and consulting the app's settings four times (about 4 % of a trivial
 * request's CPU; issue #23). Express's path stays for what it would answer differently: a handler
 * that set its own Content-Type, ETag or Last-Modified, and conditional requests (which Express
 * may answer 304).
 */
function writesItselfAsExpressWould(request: Request, response: Response): boolean {
  const headers = request.headers;
  return (
    headers['if-none-match'] === undefined &&
    headers['if-modified-since'] === undefined &&
    !response.hasHeader('Content-Type') &&
    !response.hasHeader('ETag') &&
    !response.hasHeader('Last-Modified')
  );
}

export function envelope(request: Request, data: unknown): object {
  const ignored = requestParams(request).ignored();
  return {
    result: 'success',
    msg: '',
    ...((data instanceof SerializedResult ? data.value : (data ?? {})) as object),
    ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
  };
}

/** The envelope's keys: a serialized result must not have them (the envelope's own would be overridden in place). */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['result', 'msg', 'ignored_parameters_unsupported']);

/**
 * A handler's result serialized once, for results that are a pure function of an immutable
 * document and asked for again and again (GET /users/me: the caller's frozen user document, see
 * UsersController). The envelope splices `json` in, which gives the bytes
 * `JSON.stringify(envelope(request, value))` would: the value's keys are neither the envelope's
 * nor integer-like (which an object lists first, and the splice would not).
 */
export class SerializedResult {
  readonly json: string;

  constructor(readonly value: Readonly<Record<string, unknown>>) {
    for (const key of Object.keys(value)) {
      if (ENVELOPE_KEYS.has(key) || /^\d+$/.test(key)) throw new Error(`a serialized result cannot have the key ${JSON.stringify(key)}`);
    }
    this.json = JSON.stringify(value);
  }
}

/** JSON.stringify(envelope(request, result.value)), from the result's serialized JSON. */
export function envelopeJson(request: Request, result: SerializedResult): string {
  const ignored = requestParams(request).ignored();
  const fields = result.json.length > 2 ? `,${result.json.slice(1, -1)}` : '';
  const tail = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : '';
  return `{"result":"success","msg":""${fields}${tail}}`;
}
