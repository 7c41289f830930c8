import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { requestParams } from './params/params.decorator';

/**
 * Wraps what an /api/v1 handler returns in Zulip's success envelope:
 * `{result: "success", msg: "", ...data}`, plus `ignored_parameters_unsupported` (sorted) when the
 * request carried parameters the endpoint did not read (feature level 167).
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.path.startsWith('/api/v1/') || request.path === '/api/v1/openapi.json') return next.handle();
    // Zulip answers every success with 200, POST included (Nest would say 201).
    context.switchToHttp().getResponse<Response>().status(200);
    return next.handle().pipe(
      map((data: unknown) => {
        const ignored = requestParams(request).ignored();
        return {
          result: 'success',
          msg: '',
          ...((data ?? {}) as object),
          ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
        };
      }),
    );
  }
}
