import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Express } from 'express';
import http from 'node:http';
import type { Socket } from 'node:net';

/**
 * The Express instance the API runs on, set up before Nest registers anything: Express reads
 * 'case sensitive routing' once, when its router is first created, and Nest creates it while
 * building the application, so configureHttp is too late to set it.
 *
 * Paths match case-sensitively, as Django's URL patterns do (Zulip answers /API/V1/users/me with
 * a 404). Case-insensitive matching also made such a path reach the route while the
 * authentication guard, which treats only paths under /api/v1/ as the API, let it through.
 *
 * The HTTP server makes its requests and responses with Express's prototypes already in place
 * (see ExpressRequestAdapter).
 */
export function createHttpAdapter(): ExpressAdapter {
  const instance = express();
  instance.set('case sensitive routing', true);
  return new ExpressRequestAdapter(instance);
}

/**
 * An Express adapter whose HTTP server constructs each request and response with this Express
 * application's prototypes (`app.request`, `app.response`), which Express would otherwise set on
 * every request with `Object.setPrototypeOf` (application.js `handle`). V8 moves objects whose
 * prototype was changed out of the young generation at the next scavenge (measured: ~7 KB per
 * request promoted to the old generation with a plain Express 5 hello, none with the prototypes
 * given at construction), so every request's garbage was collected by full collections, several
 * per second under load: about a tenth of a trivial request's CPU (issue #23, docs/benchmarks.md).
 * Express's own `setPrototypeOf` then finds the prototype already set and does nothing. The
 * objects are the same in every other respect: Node's own constructors build them, and they are
 * still `http.IncomingMessage` / `http.ServerResponse` instances.
 */
export class ExpressRequestAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and forced connection closing are never configured here: Nest's own server then.
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    this.httpServer = http.createServer(requestClasses(this.getInstance<Express>()), this.getInstance());
  }
}

/** Constructors for the server's requests and responses whose instances have the Express application's prototypes. */
export function requestClasses(app: Express): { IncomingMessage: typeof http.IncomingMessage; ServerResponse: typeof http.ServerResponse } {
  // Node's constructors are plain functions (not classes), so they can initialise an object made with another prototype.
  const incoming = http.IncomingMessage as unknown as (this: http.IncomingMessage, socket: Socket) => void;
  const response = http.ServerResponse as unknown as (this: http.ServerResponse, req: http.IncomingMessage, options?: object) => void;
  function AppRequest(this: http.IncomingMessage, socket: Socket) {
    incoming.call(this, socket);
  }
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: object) {
    response.call(this, req, options);
  }
  AppRequest.prototype = app.request;
  AppResponse.prototype = app.response;
  return { IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage, ServerResponse: AppResponse as unknown as typeof http.ServerResponse };
}
