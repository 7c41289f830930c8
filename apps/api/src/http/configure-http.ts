import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@app/config';

/**
 * Express-level settings shared by the server and the API tests. Request parsing, the response
 * envelope and error rendering for /api/v1 are added here as the API conventions land.
 */
export function configureHttp(app: NestExpressApplication, _config: AppConfig): void {
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
}
