import {
  type EventToAppend,
  isLegacySecretEvent,
  type LegacyCredentialEvent,
  type LegacyCredentialLog,
  type RecordedEvent,
  splitLegacySecrets,
} from '@app/application';
import type { EsdbEventStore } from './esdb-event-store';
import { derivedEventId, readWhole, replaceEsdbStream, scavengeEsdb } from './esdb-stream-replacement';

/** The new id of an event copied without its secrets: derived from the old one, so every attempt sends the same ids (idempotent appends). */
const copiedEventId = (oldId: string): string => derivedEventId('credentials-migrated', oldId);

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
    return readWhole(this.store, streamId);
  }

  async rewrite(events: { event: LegacyCredentialEvent }[]): Promise<void> {
    // Streams, not events, are what EventStoreDB can replace: they are rewritten in finish().
    for (const { event } of events) this.streams.add(event.streamId);
  }

  async finish(): Promise<void> {
    for (const stream of this.streams) await this.replaceStream(stream);
    await this.scavenge();
  }

  private async replaceStream(stream: string): Promise<void> {
    const replaced = await replaceEsdbStream(this.store, stream, {
      suffix: 'credential-migration',
      needsCopy: (e) => isLegacySecretEvent(e.type, e.data),
      copyOf: async (events) => events.map(withoutSecrets),
    });
    if (replaced > 0) this.log(`replaced ${stream} (${replaced} events) without credentials`);
  }

  private async scavenge(): Promise<void> {
    await scavengeEsdb(this.esdbUrl, this.log);
  }
}
