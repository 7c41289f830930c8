import type { ReadStorePort, UserMessageStorePort } from '@app/application';
import { ALL_PROJECTIONS } from '@app/projections';

/**
 * Every read-model document, in a canonical order, for comparing two copies document by
 * document: each collection's documents sorted by their JSON text, and the per-user message
 * state as (user, message) → flags for every user and message the documents name.
 */
export type ReadModelDump = Record<string, unknown[]>;

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
};

export async function dumpReadModels(readStore: ReadStorePort, userMessages: UserMessageStorePort): Promise<ReadModelDump> {
  const dump: ReadModelDump = {};
  for (const projection of ALL_PROJECTIONS) {
    const docs = (await readStore.find<object>(projection.collection.name)).map(canonical);
    dump[projection.collection.name] = docs.map((d) => JSON.stringify(d)).sort().map((t) => JSON.parse(t));
  }
  const users = (dump.users ?? []) as { user_id: number }[];
  const messageIds = ((dump.messages ?? []) as { id: number }[]).map((m) => m.id).sort((a, b) => a - b);
  const flags: unknown[] = [];
  for (const { user_id } of [...users].sort((a, b) => a.user_id - b.user_id)) {
    const byMessage = await userMessages.flagsFor(user_id, messageIds);
    for (const [messageId, bits] of [...byMessage].sort((a, b) => a[0] - b[0])) flags.push([user_id, messageId, bits]);
  }
  dump['(user messages)'] = flags;
  return dump;
}

/** Names of the collections whose documents differ, with a count of each side (for readable failures). */
export function differences(a: ReadModelDump, b: ReadModelDump): { collection: string; left: number; right: number }[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names
    .filter((n) => JSON.stringify(a[n] ?? []) !== JSON.stringify(b[n] ?? []))
    .map((n) => ({ collection: n, left: (a[n] ?? []).length, right: (b[n] ?? []).length }));
}
