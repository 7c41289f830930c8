import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { DomainError } from '@app/domain';
import { TooManyParametersError } from './request-limits';

export type BodyLimits = { formBytes: number; fileBytes: number; fields: number };

/** Thrown for bodies that break the request limits; rendered by the exception filter. */
export class PayloadTooLargeError extends DomainError {
  constructor(message = 'Request body too large') {
    super(message, 'BAD_REQUEST', 413);
  }
}

/**
 * Routes (paths below /api/v1, as `apiPath` gives them) that stream their own multipart body (POST /user_uploads writes the file
 * to the blob store as it arrives): the parser leaves their multipart bodies unread.
 */
export const STREAMED_MULTIPART_PATHS: ReadonlySet<string> = new Set(['/user_uploads', '/user_uploads/']);

/**
 * Parses bodies the way Zulip reads them, for every method (PATCH and DELETE included):
 * form-urlencoded bodies and multipart bodies (zulip-js sends every POST as multipart; an upload
 * is a multipart file). JSON bodies are not a Zulip convention and are left unparsed. Limits
 * bound every body, and oversized uploads are cut off while streaming, never buffered whole.
 * `apiPath` is the request's path below /api/v1 ("/user_uploads"); configureHttp calls this for
 * /api/v1 requests only.
 */
export function bodyParsers(limits: BodyLimits): (req: Request, res: Response, apiPath: string, next: NextFunction) => void {
  const form = express.urlencoded({ extended: false, limit: limits.formBytes, parameterLimit: limits.fields });
  const multipart = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limits.fileBytes, fieldSize: limits.formBytes, fields: limits.fields, files: 4, parts: limits.fields + 4 },
  }).any();
  return (req: Request, res: Response, apiPath: string, next: NextFunction) => {
    const type = req.headers['content-type'];
    if (type === undefined) return next();
    const done = (error?: unknown) => next(error ? translateBodyError(error) : undefined);
    if (type.startsWith('multipart/form-data')) return STREAMED_MULTIPART_PATHS.has(apiPath.toLowerCase()) ? next() : multipart(req, res, done);
    if (type.startsWith('application/x-www-form-urlencoded')) return form(req, res, done);
    next();
  };
}

function translateBodyError(error: unknown): unknown {
  const e = error as { type?: string; code?: string; status?: number; message?: string };
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FIELD_VALUE') return new PayloadTooLargeError();
  if (e.code === 'LIMIT_FILE_SIZE') return new PayloadTooLargeError('Uploaded file is larger than the allowed limit');
  if (e.type === 'parameters.too.many' || e.code === 'LIMIT_FIELD_COUNT' || e.code === 'LIMIT_PART_COUNT' || e.code === 'LIMIT_FILE_COUNT') {
    return new TooManyParametersError();
  }
  // Malformed bodies (bad multipart boundaries, wrong charset, aborted streams) are the client's fault.
  if (e.status !== undefined && e.status >= 400 && e.status < 500) return new DomainError('Malformed request body', 'BAD_REQUEST', 400);
  if (e.code !== undefined && String(e.code).startsWith('LIMIT_')) return new DomainError('Malformed request body', 'BAD_REQUEST', 400);
  if (e.message && /Multipart|Unexpected end of form|boundary/i.test(e.message)) return new DomainError('Malformed request body', 'BAD_REQUEST', 400);
  return error;
}
