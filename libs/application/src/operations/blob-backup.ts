import { createReadStream, createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdirOwnerOnly, OWNER_ONLY_FILE_MODE, tighten } from '../shared/owner-only-files';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { type BlobStorePort, blobKeySegments } from '../ports/blob-store.port';
import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';
import { emojiBlobKey } from '../realm-emoji/realm-emoji.documents';
import { ImportError } from './event-log-backup';

/**
 * Backup of the blobs (uploads, custom emoji) beside the event log: the log names every blob it
 * needs, so an export walks the log, collects the keys its events reference and copies those
 * objects into a directory (one file per key, at the key's path, plus `index.ndjson` with size,
 * content type and SHA-256); an import puts them back into any blob store and checks each digest.
 */
export type BlobIndexEntry = { key: string; size: number; contentType: string | null; sha256: string };

/** The blob keys an event references. A new kind of blob registers how its events name it here. */
export function blobKeysOf(event: RecordedEvent): string[] {
  const d = event.data as Record<string, unknown>;
  const keys: string[] = [];
  if (typeof d.blobKey === 'string') keys.push(d.blobKey);
  if (event.type === 'RealmEmojiAdded' && typeof d.realmId === 'number' && typeof d.fileName === 'string' && d.fileName !== '') {
    keys.push(emojiBlobKey(d.realmId, d.fileName));
  }
  return keys;
}

export const BLOB_INDEX_FILE = 'index.ndjson';

/** Copies every referenced blob that still exists into `dir`; returns how many. */
export async function exportBlobs(events: EventStorePort, blobs: BlobStorePort, dir: string, progress: (n: number) => void = () => undefined): Promise<number> {
  const keys = new Set<string>();
  let after: bigint | undefined;
  for (;;) {
    const page = await events.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const event of page) for (const key of blobKeysOf(event)) keys.add(key);
    after = page[page.length - 1].position;
  }
  mkdirOwnerOnly(dir);
  const index: string[] = [];
  for (const key of [...keys].sort()) {
    const opened = await blobs.open(key);
    if (!opened) continue; // removed since (a deleted upload): nothing to keep
    const file = join(dir, ...blobKeySegments(key));
    mkdirOwnerOnly(dirname(file));
    tighten(file, OWNER_ONLY_FILE_MODE);
    const hash = createHash('sha256');
    let size = 0;
    const digest = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(opened.stream, digest, createWriteStream(file, { mode: OWNER_ONLY_FILE_MODE }));
    index.push(JSON.stringify({ key, size, contentType: opened.contentType, sha256: hash.digest('hex') } satisfies BlobIndexEntry));
    progress(index.length);
  }
  tighten(join(dir, BLOB_INDEX_FILE), OWNER_ONLY_FILE_MODE);
  writeFileSync(join(dir, BLOB_INDEX_FILE), index.map((l) => l + '\n').join(''), { mode: OWNER_ONLY_FILE_MODE });
  return index.length;
}

/** Puts the blobs of an export directory into a blob store, checking every digest; returns how many. */
export async function importBlobs(blobs: BlobStorePort, dir: string, progress: (n: number) => void = () => undefined): Promise<number> {
  const indexFile = join(dir, BLOB_INDEX_FILE);
  if (!existsSync(indexFile)) throw new ImportError(`${dir} holds no blob export (${BLOB_INDEX_FILE} is missing)`);
  const entries = readFileSync(indexFile, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as BlobIndexEntry);
  let count = 0;
  for (const entry of entries) {
    const file = join(dir, ...blobKeySegments(entry.key));
    if (!existsSync(file)) throw new ImportError(`blob ${entry.key}: the file is missing`);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    if (hash.digest('hex') !== entry.sha256) throw new ImportError(`blob ${entry.key}: the file does not match its SHA-256 in the index`);
    const stored = await blobs.put(entry.key, createReadStream(file), { contentType: entry.contentType });
    if (stored.size !== entry.size) throw new ImportError(`blob ${entry.key}: stored ${stored.size} bytes, the index says ${entry.size}`);
    progress(++count);
  }
  return count;
}
