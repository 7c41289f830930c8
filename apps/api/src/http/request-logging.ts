import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives each request an id (echoed as X-Request-Id) and logs one line when it finishes: method,
 * path without the query string, status, duration and user id. Never parameters, bodies or
 * headers, so neither credentials nor message content reach the logs.
 */
export function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const entry = { reqId: req.id, method: req.method, path: redactPath(req.path), status: res.statusCode, ms: Math.round(ms * 10) / 10, userId: req.auth?.user.user_id };
      if (res.statusCode >= 500) logger.error(entry, 'request failed');
      else logger.debug(entry, 'request');
    });
    next();
  };
}

/** Paths that carry a credential (a temporary upload link, an email-confirmation key) are logged without it. */
export function redactPath(path: string): string {
  return path.replace(/(\/user_uploads\/temporary\/|\/accounts\/confirm_new_email\/)[^/]+/, '$1[redacted]');
}
