import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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
    /** A body read by readForm that only body-parser's own parser may parse: the same bytes, given to it. */
    const replay = (body: Buffer) => {
      const copy = Object.assign(Readable.from([body]), { headers: req.headers, complete: false, socket: { readable: true } }) as unknown as Request;
      form(copy, res, (error?: unknown) => {
        (req as { body?: unknown }).body = (copy as { body?: unknown }).body;
        done(error);
      });
    };
    if (type.startsWith('multipart/form-data')) return STREAMED_MULTIPART_PATHS.has(apiPath.toLowerCase()) ? next() : multipart(req, res, done);
    if (type === FORM_TYPE && readsPlainForm(req, limits.formBytes)) return readForm(req, limits, (error, body) => {
      if (error) return next(error);
      if (Buffer.isBuffer(body)) return replay(body);
      (req as { body?: unknown }).body = body;
      next();
    });
    if (type.startsWith('application/x-www-form-urlencoded')) return form(req, res, done);
    next();
  };
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Whether readForm reads this form body exactly as body-parser's urlencoded parser would (issue
 * #23: that parser cost a send about 20 µs): an unencoded body of a declared length within the
 * limit (the plain Content-Type, hence UTF-8), on a request whose body nobody read yet. Anything
 * else (chunked, compressed, a charset, oversized) goes to body-parser, which answers it as before.
 */
function readsPlainForm(req: Request, limit: number): boolean {
  const { headers } = req;
  const length = headers['content-length'];
  if (length === undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return false;
  if (!/^[0-9]{1,10}$/.test(length) || Number(length) > limit) return false;
  // on-finished's isFinished (body-parser skips a finished request), and raw-body's preconditions.
  const socket = req.socket as { readable?: boolean } | null;
  return !(req as { upgrade?: boolean }).upgrade && !!socket?.readable && req.readable && req.readableEncoding === null && !req.readableFlowing;
}

/**
 * Reads a form body as raw-body does for body-parser (the declared length, UTF-8 through a
 * StringDecoder, a leading byte-order mark dropped) and parses it as qs does for body-parser's
 * `extended: false` when every name is plain (no brackets, no repeats, not empty, not
 * "__proto__"): then the result is `{ name: value }` in order, each decoded as qs decodes it. For
 * any other body it returns its bytes, for body-parser's own parser (bodyParsers' replay).
 */
function readForm(req: Request, limits: BodyLimits, callback: (error: unknown, body?: Record<string, string> | Buffer) => void): void {
  if (!('body' in req)) (req as { body?: unknown }).body = undefined;
  const length = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: unknown, body?: Record<string, string> | Buffer) => {
    if (finished) return;
    finished = true;
    req.removeListener('aborted', onAborted);
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onError);
    req.removeListener('close', onClose);
    if (error) req.resume();
    callback(error, body);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limits.formBytes) return finish(new PayloadTooLargeError());
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (received !== length) return finish(malformedBody());
    // iconv-lite's UTF-8 decoder, as raw-body uses it: a StringDecoder, the byte-order mark stripped.
    const decoder = new StringDecoder('utf8');
    let text = '';
    for (const chunk of chunks) text += decoder.write(chunk);
    text += decoder.end();
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (countParameters(text) > limits.fields) return finish(new TooManyParametersError());
    finish(undefined, parsePlainForm(text) ?? Buffer.concat(chunks));
  };
  const onAborted = () => finish(malformedBody());
  const onError = () => finish(malformedBody());
  // raw-body stops listening when the request closes before its end, and never answers.
  const onClose = () => {
    finished = true;
    req.removeListener('aborted', onAborted);
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onError);
    req.removeListener('close', onClose);
  };
  req.on('aborted', onAborted);
  req.on('close', onClose);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

const malformedBody = () => new DomainError('Malformed request body', 'BAD_REQUEST', 400);

/** body-parser's parameterCount: one more than the number of "&" (an empty body has none). */
function countParameters(body: string): number {
  if (body.length === 0) return 0;
  let count = 1;
  for (let at = body.indexOf('&'); at !== -1; at = body.indexOf('&', at + 1)) count++;
  return count;
}

/** qs's decoder (utils.decode) for UTF-8. */
function decodeFormComponent(text: string): string {
  if (text.indexOf('%') === -1) return text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * What qs.parse gives body-parser's urlencoded parser (depth 0, allowPrototypes, duplicates
 * combined) for a body whose names are all plain, else undefined. qs first turns every %5B/%5D
 * into brackets, then splits each part at its first "]=" or else its first "=".
 */
export function parsePlainForm(body: string): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  if (body.length === 0) return result;
  const clean = body.replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  for (const part of clean.split('&')) {
    if (part.includes(']=')) return undefined;
    const at = part.indexOf('=');
    const rawName = at === -1 ? part : part.slice(0, at);
    if (rawName.includes('[') || rawName.includes(']')) return undefined;
    const name = decodeFormComponent(rawName);
    if (name === '' || name === '__proto__' || Object.hasOwn(result, name)) return undefined;
    result[name] = at === -1 ? '' : decodeFormComponent(part.slice(at + 1));
  }
  return result;
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
