import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';

/**
 * The Express instance the API runs on, set up before Nest registers anything: Express reads
 * 'case sensitive routing' once, when its router is first created, and Nest creates it while
 * building the application, so configureHttp is too late to set it.
 *
 * Paths match case-sensitively, as Django's URL patterns do (Zulip answers /API/V1/users/me with
 * a 404). Case-insensitive matching also made such a path reach the route while the
 * authentication guard, which treats only paths under /api/v1/ as the API, let it through.
 */
export function createHttpAdapter(): ExpressAdapter {
  const instance = express();
  instance.set('case sensitive routing', true);
  return new ExpressAdapter(instance);
}
