import { createHash } from 'node:crypto';
import { StreamDeletedError, StreamNotFoundError } from '@eventstore/db-client';
import {
  type EventToAppend,
  isLegacySecretEvent,
  type LegacyCredentialEvent,
  type LegacyCredentialLog,
  type RecordedEvent,
  splitLegacySecrets,
} from '@app/application';
import type { EsdbEventStore } from './esdb-event-store';

/** Events per append: well under EventStoreDB's default MaxAppendSize (1 MiB) for user events. */
const APPEND_CHUNK = 200;

/** The new id of an event copied without its secrets: derived from the old one, so every attempt sends the same ids (idempotent appends). */
const copiedEventId = (oldId: string): string => {
  const hex = createHash('sha256').update(`credentials-migrated\u0000${oldId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const withoutSecrets = (event: RecordedEvent): EventToAppend => {
  const legacy = isLegacySecretEvent(event.type, event.data);
  const split = legacy ? splitLegacySecrets({ id: event.id, type: event.type, data: event.data as Record<string, unknown> }) : undefined;
  return {
    id: copiedEventId(event.id),
    type: event.type,
    data: split ? split.data : event.data,
    metadata: { ...event.metadata, ...(split ? { schemaVersion: split.schemaVersion } : {}), copiedFrom: event.id },
  };
};

/**
 * The EventStoreDB side of the credential migration (docs/security.md, "Migrating existing data").
 * Events cannot be edited, so each stream that holds an old event with a secret (the organizations'
 * `users-<realmId>`, users' `push_devices-<userId>`, `settings-…` streams with old email-change
 * keys) is copied without the secrets and the old events deleted:
 *
 * 1. the stream is copied, secrets removed, to `<stream>-credential-migration` (so that nothing
 *    is lost if the run stops between the next steps);
 * 2. the stream is soft-deleted (`deleteStream`: its events are hidden and become scavengeable,
 *    and the stream may be written again, keeping its name, which the code and the snapshots
 *    key on; a tombstone would forbid the name for ever);
 * 3. the copy's events are appended to the stream again (its revisions continue after the old
 *    ones; DeciderRunner's snapshots of the old revisions no longer match and are ignored);
 * 4. the temporary copy is tombstoned (`tombstoneStream`);
 * 5. after every stream: a scavenge (`POST /admin/scavenge` on the node's HTTP API, the operation
 *    @eventstore/db-client 6.x does not expose) removes the deleted events' bytes from the chunks.
 *
 * Each step checks where a previous run stopped. The copied events sit at the end of `$all`:
 * the read models are rebuilt afterwards (`npm run cli -- rebuild`), with the servers stopped,
 * since event queues would hand the copies to clients as new. Written against
 * @eventstore/db-client 6.2's API; not run here (no EventStoreDB on this machine).
 */
export class EsdbLegacyCredentialLog implements LegacyCredentialLog {
  private readonly streams = new Set<string>();

  constructor(
    private readonly store: EsdbEventStore,
    private readonly esdbUrl: string,
    private readonly log: (message: string) => void,
  ) {}

  async scan(cursor: string | undefined, limit: number): Promise<{ events: LegacyCredentialEvent[]; next: string | undefined }> {
    const page = await this.store.readAll({ after: cursor === undefined ? undefined : BigInt(cursor), maxCount: limit });
    const events = page
      .filter((e) => isLegacySecretEvent(e.type, e.data))
      .map((e) => ({ id: e.id, streamId: e.streamId, type: e.type, data: e.data as Record<string, unknown> }));
    return { events, next: page.length < limit ? undefined : String(page[page.length - 1].position) };
  }

  readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.readWhole(streamId);
  }

  async rewrite(events: { event: LegacyCredentialEvent }[]): Promise<void> {
    // Streams, not events, are what EventStoreDB can replace: they are rewritten in finish().
    for (const { event } of events) this.streams.add(event.streamId);
  }

  async finish(): Promise<void> {
    for (const stream of this.streams) await this.replaceStream(stream);
    await this.scavenge();
  }

  private async readWhole(stream: string): Promise<RecordedEvent[]> {
    try {
      return (await this.store.readStream(stream)).events;
    } catch (error) {
      if (error instanceof StreamDeletedError || error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  private async appendAll(stream: string, events: EventToAppend[]): Promise<void> {
    for (let i = 0; i < events.length; i += APPEND_CHUNK) {
      await this.store.appendToStream(stream, events.slice(i, i + APPEND_CHUNK), { expectedRevision: 'any' });
    }
  }

  private async replaceStream(stream: string): Promise<void> {
    const temporary = `${stream}-credential-migration`;
    const current = await this.readWhole(stream);
    let copy = await this.readWhole(temporary);
    const copyIds = () => new Set(copy.map((e) => e.id));
    // The stream still holds its old events unless every event it holds came from the copy.
    const deleted = current.length > 0 && current.every((e) => copyIds().has(e.id));
    if (!deleted) {
      // Nothing to do for a stream replaced by an earlier run (its old events stay in $all until the scavenge, so the scan saw them).
      if (copy.length === 0 && !current.some((e) => isLegacySecretEvent(e.type, e.data))) return;
      // 1. The copy, or the rest of it when an earlier run stopped halfway through.
      await this.appendAll(temporary, current.slice(copy.length).map(withoutSecrets));
      copy = await this.readWhole(temporary);
      // 2. The old events go (soft delete: the name stays writable).
      await this.store.client.deleteStream(stream);
    }
    // 3. The copy's events back under the stream's name (those an earlier run appended are skipped).
    const present = deleted ? new Set(current.map((e) => e.id)) : new Set<string>();
    const events: EventToAppend[] = copy.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata as EventToAppend['metadata'] }));
    await this.appendAll(stream, events.filter((e) => !present.has(e.id)));
    // 4. The temporary copy goes for good.
    await this.store.client.tombstoneStream(temporary);
    this.log(`replaced ${stream} (${events.length} events) without credentials`);
  }

  /** POST /admin/scavenge on the node (HTTP API, admin credentials from the connection string). */
  private async scavenge(): Promise<void> {
    const url = new URL(this.esdbUrl.replace(/^esdb(\+discover)?:/, 'http:'));
    const tls = url.searchParams.get('tls') !== 'false';
    const base = `${tls ? 'https' : 'http'}://${url.host}`;
    const headers: Record<string, string> = {};
    if (url.username) headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    try {
      const response = await fetch(`${base}/admin/scavenge`, { method: 'POST', headers });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.log(`scavenge started on ${base}: the deleted events leave the chunks when it completes (follow it in the node's UI or logs)`);
    } catch (error) {
      this.log(`could not start a scavenge (${(error as Error).message}): start one yourself, e.g. curl -X POST -u admin:<password> ${base}/admin/scavenge`);
    }
  }
}
