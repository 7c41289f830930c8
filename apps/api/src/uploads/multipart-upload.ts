import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { DomainError, TooManyFilesUploadedError } from '@app/domain';
import type { ReceivedUpload, UploadIntake } from '@app/application';

/** Field limits of an upload's multipart body besides its file (Zulip ignores other fields). */
const LIMITS = { fields: 100, fieldSize: 64 * 1024, parts: 110, headerPairs: 200 };

/**
 * Reads `POST /user_uploads`'s multipart body as a stream (busboy): the first file part goes
 * straight into the blob store through UploadIntake (which stops at the size limit), a second file
 * part ends the request with "You may only upload one file at a time", and nothing is buffered.
 * Once the answer is known, whatever the client still sends is drained, never kept.
 */
export function receiveMultipartUpload(request: Request, intake: UploadIntake, realmId: number): Promise<{ file: ReceivedUpload | null; fileCount: number }> {
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    request.resume();
    return Promise.resolve({ file: null, fileCount: 0 });
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, limits: LIMITS, defParamCharset: 'utf8' });
    } catch {
      request.resume();
      reject(new DomainError('Malformed request body'));
      return;
    }
    let fileCount = 0;
    let first: Promise<ReceivedUpload> | undefined;
    let settled = false;
    let current: Readable | undefined;
    const stopReading = () => {
      request.unpipe(parser);
      parser.removeAllListeners('file');
      request.resume();
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stopReading();
      // A file still arriving stops being written (its partial bytes are deleted by UploadIntake).
      if (current && !current.readableEnded) current.destroy(new Error('upload abandoned'));
      // A file already stored for a refused request goes again.
      if (first) void first.then((stored) => intake.discard(stored.blobKey), () => undefined);
      reject(error);
    };

    parser.on('file', (_field, stream, info) => {
      fileCount += 1;
      if (fileCount > 1) {
        stream.resume();
        fail(new TooManyFilesUploadedError());
        return;
      }
      current = stream;
      const name = info.filename ?? '';
      first = intake.receive(realmId, stream, null).then((stored) => ({
        name: name === '' ? 'uploaded-file' : name,
        declaredType: info.mimeType ?? null,
        size: stored.size,
        random: stored.random,
        blobKey: stored.blobKey,
        via: 'multipart' as const,
      }));
      // A body that broke off mid-file is the client's fault; a failing store stays a server error.
      first.catch((error) => fail(error instanceof DomainError || !stream.errored ? error : new DomainError('Malformed request body')));
    });
    parser.on('partsLimit', () => fail(new DomainError('Too many parameters')));
    parser.on('fieldsLimit', () => fail(new DomainError('Too many parameters')));
    parser.on('error', () => fail(new DomainError('Malformed request body')));
    parser.on('close', () => {
      if (settled) return;
      if (!first) {
        settled = true;
        resolve({ file: null, fileCount });
        return;
      }
      first.then(
        (file) => {
          if (settled) return;
          settled = true;
          resolve({ file, fileCount });
        },
        fail,
      );
    });
    request.on('error', () => fail(new DomainError('Malformed request body')));
    // A client that goes away mid-body: forget the upload (nothing waits for the answer).
    request.on('close', () => {
      if (!request.complete) fail(new DomainError('Malformed request body'));
    });
    request.pipe(parser);
  });
}
