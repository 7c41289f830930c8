import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { LOGGER } from '@app/application';
import { DomainError } from '@app/domain';
import { MethodNotAllowedError, RateLimitedError, RouteNotFoundError } from './api.errors';
import { PayloadTooLargeError } from './body-parsing';

type RouterLayer = { route?: { methods: Record<string, boolean> }; match(path: string): boolean };

/**
 * Renders every error as Zulip's envelope `{result: "error", msg, code, ...extra}` with its HTTP
 * status. Unexpected exceptions become a logged 500 that names the request id and nothing else.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const error = this.toDomainError(exception, request);
    if (response.headersSent) return;
    // Every credential failure tells the client how to authenticate (RFC 7235).
    if (error.httpStatus === 401) response.setHeader('WWW-Authenticate', 'Basic realm="team-chat"');
    // A rate limit (429) or a busy server (503, ServerBusyError): when to try again, as Zulip's body field says too.
    const retryAfter = error instanceof RateLimitedError ? error.retryAfterSeconds : error.extra['retry-after'];
    if (typeof retryAfter === 'number') response.setHeader('Retry-After', String(retryAfter));
    if (error instanceof MethodNotAllowedError) response.setHeader('Allow', error.allowedMethods.join(', '));
    response.status(error.httpStatus).json({ result: 'error', msg: error.message, code: error.code, ...error.extra });
  }

  private toDomainError(exception: unknown, request: Request): DomainError {
    if (exception instanceof DomainError) return exception;
    if (exception instanceof NotFoundException && this.isUnmatchedRoute(exception)) {
      const allowed = this.allowedMethods(request.path);
      return allowed.length > 0 ? new MethodNotAllowedError(allowed) : new RouteNotFoundError();
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      if (status === 413) return new PayloadTooLargeError();
      return new DomainError(status === 404 ? 'Not Found' : 'Bad request', 'BAD_REQUEST', status);
    }
    const requestId = String(request.id ?? '');
    this.logger.error({ err: exception, reqId: requestId, method: request.method, path: request.path }, 'unhandled error');
    return new DomainError(`Internal server error (request ${requestId})`, 'INTERNAL_SERVER_ERROR', 500, { request_id: requestId });
  }

  /** Nest's router answers an unknown path or method with a NotFoundException "Cannot GET /x". */
  private isUnmatchedRoute(exception: NotFoundException): boolean {
    return /^Cannot [A-Z]+ /.test(exception.message);
  }

  /**
   * Methods that would match this path: a wrong method is a 405 (checked before authentication).
   * As Zulip's rest_dispatch: a route with GET also answers HEAD (Express serves HEAD with the GET
   * handler), listed last (`supported_methods.setdefault("HEAD", …)`). Zulip lists the others in
   * the order its urls.py declares them; here they are sorted.
   */
  private allowedMethods(path: string): string[] {
    const app = this.adapterHost.httpAdapter.getInstance() as { router?: { stack: RouterLayer[] } };
    const methods = new Set<string>();
    for (const layer of app.router?.stack ?? []) {
      if (!layer.route || !layer.match(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') methods.add(method.toUpperCase());
    }
    const hasHead = methods.delete('HEAD') || methods.has('GET');
    const sorted = [...methods].sort();
    return hasHead ? [...sorted, 'HEAD'] : sorted;
  }
}
