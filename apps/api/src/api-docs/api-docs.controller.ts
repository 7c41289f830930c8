import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Public } from '../http/auth.decorators';
import { Summary } from '../openapi/summary.decorator';

/** Swagger UI's prebuilt files, served from node_modules: nothing is fetched from a CDN. */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>team-chat API reference</title>
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

// "Try it out" sends requests to this server; Authorize takes an email and API key (HTTP Basic).
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'none',
  filter: true,
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/**
 * GET /api/docs: a browsable reference of the API, rendered by Swagger UI (swagger-ui-dist) from
 * the OpenAPI description the code generates (/api/v1/openapi.json).
 */
@Controller('api/docs')
export class ApiDocsController {
  private readonly cache = new Map<string, Buffer>();

  @Get()
  @Public()
  @Summary('This reference: Swagger UI rendering /api/v1/openapi.json.')
  page(@Res() res: Response): void {
    res.status(200).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Frame-Options': 'DENY' }).send(PAGE);
  }

  @Get(':file')
  @Public()
  @Summary("The reference page's script and style files (swagger-ui-dist, served locally).")
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (file === 'init.js') {
      res.status(200).set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).send(INIT);
      return;
    }
    if (!Object.hasOwn(ASSETS, file)) throw new NotFoundException('No such file in the API reference.');
    let body = this.cache.get(file);
    if (!body) {
      body = readFileSync(join(SWAGGER_UI_DIR, file));
      this.cache.set(file, body);
    }
    res.status(200).set({ 'Content-Type': ASSETS[file], 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(body);
  }
}
