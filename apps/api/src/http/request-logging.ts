import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Level, Logger } from 'pino';
import type { MetricsPort } from '@app/application';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The label of requests no route matched (404s, malformed requests answered by a middleware). */
export const NO_ROUTE = '(no route)';

/**
 * Called first for every request (configureHttp). Gives each request an id (echoed as
 * X-Request-Id) and, when it finishes, records it once: the `http_request_duration_seconds` histogram, and one log line with method, route pattern (e.g.
 * `/api/v1/messages/:message_id`, never the path with its ids), status, duration and user id.
 * Never parameters, bodies or headers, so neither credentials nor message content reach the logs.
 * Production logs every request at info; elsewhere at debug (a quiet development terminal). 5xx
 * answers are errors everywhere.
 *
 * Cheap per request (issue #23): one listener, the route read from Express's own match, and the
 * log entry built only when its level is enabled.
 */
export function requestLogging(logger: Logger, metrics: MetricsPort, options: { production: boolean }): (req: Request, res: Response) => void {
  const level: Level = options.production ? 'info' : 'debug';
  return (req: Request, res: Response) => {
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = performance.now();
    // 'finish' is emitted once per response: `on` spares the wrapper `once` allocates.
    res.on('finish', () => {
      const ms = performance.now() - started;
      const route = routePattern(req);
      const status = res.statusCode;
      metrics.httpRequest(req.method, route, status, ms / 1000);
      const failed = status >= 500;
      if (!logger.isLevelEnabled(failed ? 'error' : level)) return;
      const entry = {
        reqId: req.id,
        method: req.method,
        route,
        ...(route === NO_ROUTE ? { path: redactPath(req.path) } : {}),
        status,
        ms: Math.round(ms * 10) / 10,
        userId: req.auth?.user.user_id,
      };
      if (failed) logger.error(entry, 'request failed');
      else logger[level](entry, 'request');
    });
  };
}

/** The pattern of the route Express matched (Nest registers every controller route on the app's router). */
export function routePattern(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? req.baseUrl + path : NO_ROUTE;
}

/** Paths that carry a credential (a temporary upload link, an email-confirmation key) are logged without it. */
export function redactPath(path: string): string {
  return path.replace(/(\/user_uploads\/temporary\/|\/accounts\/confirm_new_email\/)[^/]+/, '$1[redacted]');
}
