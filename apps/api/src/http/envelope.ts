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
    return reply(response, envelope(request, body));
  };
}

export function envelope(request: Request, data: unknown): object {
  const ignored = requestParams(request).ignored();
  return {
    result: 'success',
    msg: '',
    ...((data ?? {}) as object),
    ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
  };
}
