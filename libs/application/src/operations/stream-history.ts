import {
  channelsStream,
  customProfileValuesStream,
  DomainError,
  messageStream,
  realmStream,
  subscriptionsStream,
  userSettingsStream,
  userStatusStream,
  userProfileStream,
  usersStream,
} from '@app/domain';
import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';

/**
 * Audit history, read from the event log itself: every event of a stream, or about an entity
 * (a message, a channel, a user, the organization's settings), as who did what when, with the
 * old and new values the event carries. Generic over event types: it relies only on the
 * conventions every event follows (`actorId`, `at`, `oldX`/`newX` pairs, `prevX` beside `X`,
 * `oldValue`/`newValue` of a named `property`/`setting`, `old`/`new`).
 */
export type HistoryChange = { field: string; old: unknown; new: unknown };

export type HistoryEntry = {
  position: string;
  stream: string;
  revision: string;
  type: string;
  /** When it happened (the event's own time; the recording time when it has none). */
  at: string;
  /** Who did it: a user id, or null for the system / an operator. */
  actor_id: number | null;
  changes: HistoryChange[];
  schema_version: number;
  data: object;
  /** The fields of `data` shown as `[hidden]` to this reader (AuditHistory, history-visibility.ts). */
  hidden: string[];
};

export type HistoryTarget =
  | { kind: 'stream'; stream: string }
  | { kind: 'message'; id: number }
  | { kind: 'channel'; realmId: number; id: number }
  | { kind: 'user'; realmId: number; id: number }
  | { kind: 'realm'; realmId: number };

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** The old → new pairs an event's payload carries. */
export function changesOf(data: Record<string, unknown>): HistoryChange[] {
  const changes: HistoryChange[] = [];
  const named = (typeof data.property === 'string' && data.property) || (typeof data.setting === 'string' && data.setting) || (typeof data.field === 'string' && data.field) || 'value';
  for (const key of Object.keys(data)) {
    if (key === 'oldValue' && 'newValue' in data) changes.push({ field: named, old: data.oldValue, new: data.newValue });
    else if (key === 'old' && 'new' in data) changes.push({ field: named, old: data.old, new: data.new });
    else if (/^old[A-Z]/.test(key) && key !== 'oldValue') {
      const base = key.slice(3);
      if (`new${base}` in data) changes.push({ field: snake(lowerFirst(base)), old: data[key], new: data[`new${base}`] });
    } else if (/^prev[A-Z]/.test(key)) {
      const base = lowerFirst(key.slice(4));
      if (base in data) changes.push({ field: snake(base), old: data[key], new: data[base] });
    }
  }
  return changes;
}

function actorOf(event: RecordedEvent): number | null {
  const d = event.data as Record<string, any>;
  // An explicit `actorId: null` is the system or an operator.
  if ('actorId' in d) return typeof d.actorId === 'number' ? d.actorId : null;
  for (const candidate of [d.editorId, d.actor?.userId, d.senderId, event.metadata?.actorId]) {
    if (typeof candidate === 'number') return candidate;
  }
  return null;
}

/** An entry showing `event`'s data; who and when come from `recorded`, the event as stored (the same unless redacted). */
export function toHistoryEntry(event: RecordedEvent, recorded: RecordedEvent = event): HistoryEntry {
  const d = recorded.data as Record<string, unknown>;
  const at = [d.at, d.now, d.editedAt, d.sentAt].find((v): v is string => typeof v === 'string') ?? recorded.recordedAt;
  return {
    position: event.position.toString(),
    stream: event.streamId,
    revision: event.revision.toString(),
    type: event.type,
    at,
    actor_id: actorOf(recorded),
    changes: changesOf(event.data as Record<string, unknown>),
    schema_version: event.metadata?.schemaVersion ?? 1,
    data: event.data,
    hidden: [],
  };
}

const numberIn = (data: Record<string, unknown>, keys: string[], id: number) => keys.some((k) => data[k] === id);

/**
 * Reads the events of a stream or an entity, oldest first, as recorded: secrets and all. Readers
 * go through AuditHistory (audit-history.ts), which shows each reader only what they may read.
 */
export class StreamHistory {
  constructor(private readonly store: EventStorePort) {}

  async events(target: HistoryTarget): Promise<RecordedEvent[]> {
    const sources = this.sourcesOf(target);
    const collected: RecordedEvent[] = [];
    for (const { stream, about } of sources) {
      const { events } = await this.store.readStream(stream);
      collected.push(...(about ? events.filter((e) => about(e.data as Record<string, unknown>)) : events));
    }
    collected.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
    return collected;
  }

  private sourcesOf(target: HistoryTarget): { stream: string; about?: (data: Record<string, unknown>) => boolean }[] {
    switch (target.kind) {
      case 'stream':
        if (!/^[a-z_]+-[A-Za-z0-9_.-]+$/.test(target.stream)) throw new DomainError('Invalid stream name');
        return [{ stream: target.stream }];
      case 'message':
        return [{ stream: messageStream(target.id) }];
      case 'realm':
        return [{ stream: realmStream(target.realmId) }];
      case 'channel':
        return [
          { stream: channelsStream(target.realmId), about: (d) => numberIn(d, ['channelId', 'streamId'], target.id) },
          { stream: subscriptionsStream(target.id) },
        ];
      case 'user':
        return [
          { stream: usersStream(target.realmId), about: (d) => numberIn(d, ['userId', 'botId'], target.id) },
          { stream: userProfileStream(target.id) },
          { stream: userSettingsStream(target.id) },
          { stream: userStatusStream(target.id) },
          { stream: customProfileValuesStream(target.id) },
        ];
    }
  }
}

/** The history as a text table (the CLI's default output). */
export function historyTable(entries: HistoryEntry[]): string[] {
  const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? 'undefined');
  const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  const rows = entries.map((e) => [
    e.position,
    e.at,
    e.actor_id === null ? '-' : String(e.actor_id),
    e.type,
    e.stream,
    e.changes.length === 0 ? '' : e.changes.map((c) => `${c.field}: ${clip(value(c.old), 30)} → ${clip(value(c.new), 30)}`).join('; '),
  ]);
  const header = ['POSITION', 'WHEN', 'WHO', 'WHAT', 'STREAM', 'CHANGES'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
}
