import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Application, NextFunction, Request, Response } from 'express';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { LOGGER, METRICS, type MetricsPort } from '@app/application';
import type { AppConfig } from '@app/config';
import { bodyParsers } from './body-parsing';
import { answerInTheEnvelope } from './envelope';
import { requestLogging } from './request-logging';
import { hasTooManyQueryParameters, MAX_PARAMETERS, TooManyParametersError } from './request-limits';

/**
 * Express-level settings shared by the server, the API tests and the benchmarks: request ids and
 * logging, Zulip-style body parsing for every method under /api/v1, and the success envelope
 * (envelope.ts). The error filter and authentication are Nest providers (see HttpConventionsModule).
 */
export function configureHttp(app: NestExpressApplication, config: AppConfig): void {
  // Set when the Express instance was made (createHttpAdapter): Express reads it only once.
  if (!(app.getHttpAdapter().getInstance() as Application).enabled('case sensitive routing')) {
    throw new Error('The application must be created on createHttpAdapter() (case-sensitive routing)');
  }
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
  // Flat keys only (`a[b]=1` stays a key named "a[b]"), as Django reads them.
  app.set('query parser', 'simple');
  const logRequest = requestLogging(app.get<Logger>(LOGGER), app.get<MetricsPort>(METRICS), { production: config.env === 'production' });
  const parseBody = bodyParsers({ formBytes: config.maxRequestBodyBytes, fileBytes: config.maxFileUploadSizeMib * 1024 * 1024, fields: MAX_PARAMETERS });
  // One middleware for every request rather than three (two mounted at /api/v1): each Express
  // layer costs a match, and a mounted one rewrites req.url, so that the URL is parsed again
  // (issue #23).
  app.use((req: Request, res: Response, next: NextFunction) => {
    logRequest(req, res);
    const apiPath = pathBelowApi(req.path);
    // The sign-up page's form (/join/<key>/) is the one page outside /api/v1 that takes a POST body.
    if (apiPath === undefined) return req.path.startsWith('/join/') ? parseBody(req, res, req.path, next) : next();
    if (hasTooManyQueryParameters(req.originalUrl)) return next(new TooManyParametersError());
    parseBody(req, res, apiPath, next);
  });
  answerMalformedHttpInTheEnvelope(app.getHttpServer() as Server);
  answerInTheEnvelope(app);
}

const API_PREFIX = '/api/v1';

/**
 * The path below /api/v1 ("/users/me"; "/" for /api/v1 itself) of a request path under it, else
 * undefined: what Express's `app.use('/api/v1', …)` matches (case-sensitively, as routing is set up here; whole segments)
 * and leaves in `req.path`.
 */
export function pathBelowApi(path: string): string | undefined {
  if (!path.startsWith(API_PREFIX)) return undefined;
  if (path.length === API_PREFIX.length) return '/';
  return path[API_PREFIX.length] === '/' ? path.slice(API_PREFIX.length) : undefined;
}

/**
 * Requests Node's HTTP parser rejects before any route sees them (a URL or headers over 16 KiB,
 * broken framing) still get an answer in the API's envelope instead of a bare status line.
 */
function answerMalformedHttpInTheEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({
      result: 'error',
      msg: status === 431 ? 'Request URL or headers too large' : 'Malformed HTTP request',
      code: 'BAD_REQUEST',
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
