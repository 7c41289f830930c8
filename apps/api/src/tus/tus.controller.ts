import { Controller, Delete, Head, Patch, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '@app/domain';
import { Summary } from '../openapi/summary.decorator';
import { TusUploads } from './tus-uploads';

/**
 * `/api/v1/tus` and `/api/v1/tus/{upload_id}`: the tus 1.0.0 protocol (creation,
 * creation-with-upload, termination, expiration) handled by @tus/server; authenticated like
 * every API route (HTTP Basic), so an upload's owner is the authenticated user.
 */
@Controller('api/v1/tus')
export class TusController {
  constructor(private readonly tus: TusUploads) {}

  private async handle(request: Request, response: Response): Promise<void> {
    // tus answers this one in plain text before any hook runs; answer it in the envelope instead.
    if (request.headers['tus-resumable'] === undefined) throw new DomainError('Tus-Resumable Required', 'BAD_REQUEST', 412);
    await this.tus.handle(request, response);
  }

  @Post()
  @Summary('tus: create a resumable upload (Upload-Length, Upload-Metadata filename/filetype), optionally with its first bytes.')
  create(@Req() request: Request, @Res() response: Response) {
    return this.handle(request, response);
  }

  @Head(':upload_id')
  @Summary('tus: the offset reached by an upload.')
  offset(@Req() request: Request, @Res() response: Response) {
    return this.handle(request, response);
  }

  @Patch(':upload_id')
  @Summary('tus: append bytes at Upload-Offset; the last ones turn the upload into an attachment and answer {url, uri, filename}.')
  append(@Req() request: Request, @Res() response: Response) {
    return this.handle(request, response);
  }

  @Delete(':upload_id')
  @Summary('tus: abandon an unfinished upload.')
  terminate(@Req() request: Request, @Res() response: Response) {
    return this.handle(request, response);
  }
}
