import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../http/auth.decorators';
import { Summary } from '../openapi/summary.decorator';

/** The console's files (copied beside the compiled code by `npm run build`). */
const PUBLIC_DIR = join(__dirname, 'public');
const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/**
 * The operator console (static HTML and JS): projections, rebuilds with their progress, audit
 * history. It signs in with an administrator's email and API key, held in the page's memory, and
 * calls only the administrators' API under /api/v1/svc (docs/operations.md). Public here: the
 * files hold no data; every call the page makes is authenticated.
 */
@Controller('svc/console')
export class ConsoleController {
  private readonly cache = new Map<string, Buffer>();

  @Get()
  @Public()
  @Summary('The operator console: projections, rebuilds, audit history (sign in with an administrator\'s API key).')
  page(@Res() res: Response): void {
    this.send(res, 'index.html');
  }

  @Get(':file')
  @Public()
  @Summary("The console's script and style files.")
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (file === 'index.html' || !Object.hasOwn(FILES, file)) throw new NotFoundException('No such file in the console.');
    this.send(res, file);
  }

  private send(res: Response, file: string): void {
    let body = this.cache.get(file);
    if (!body) {
      body = readFileSync(join(PUBLIC_DIR, file));
      this.cache.set(file, body);
    }
    res
      .status(200)
      .set({
        'Content-Type': FILES[file],
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        // Only this server's own script, styles and API; never framed.
        'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
      })
      .send(body);
  }
}
