/**
 * The organization the history benchmarks measure on (bench/history-scale.ts, bench/search.ts):
 * a development-style realm with `users` accounts and `channels` channels of `subscribers` each,
 * through the API, then `messages` channel messages appended straight to the event store (no HTTP,
 * one `MessageSent` each, round-robin over the channels, ten topics a channel) with the projectors
 * off, and projected after (a catch-up).
 * Only the message texts differ between the benchmarks (`content`).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { ClientEventReactor, EVENT_STORE, type EventStorePort, ID_ALLOCATOR, type IdAllocatorPort, RANDOM, type RandomPort } from '@app/application';
import { CURRENT_SCHEMA_VERSION, type MessageSent, messageStream } from '@app/domain';
import { READ_MODEL_LAYOUT_FILE, readModelLayout } from '@app/infrastructure/embedded/sqlite-read-model-copies';
import { Projector } from '@app/projections';
import { createBenchRealm, jsonOk, seedUsers, startApp } from './app-harness';
import { fmtInt, fmtNum, now, progress } from './support';

export type HistoryChannel = { name: string; stream_id: number; subscribers: number[] };

export type HistoryOrganization = {
  auth: string;
  realmId: number;
  senderId: number;
  channels: HistoryChannel[];
  /** Appending the messages (projectors off), and until the projectors had applied them (ms, from the first append; the catch-up is the difference). */
  appendMs: number;
  projectedMs: number;
};

export type HistoryOptions = {
  users: number;
  channels: number;
  subscribers: number;
  messages: number;
  /** The i-th message's Markdown (rendered as one paragraph). */
  content: (i: number) => string;
  /** A progress line every this many messages. */
  progressEvery: number;
  /** Runs on the application once the messages are projected, before it closes. */
  afterProjected?: (app: INestApplicationContext) => Promise<void>;
};

/**
 * The app that appends: no projectors, and none of the reactors that follow the log from a
 * checkpoint (RUN_SCHEDULED_JOBS: the missed-message mails, which read each recipient's settings
 * for every message; scheduled deliveries).
 */
const OFF = { RUN_PROJECTORS: 'false', RUN_SCHEDULED_JOBS: 'false' };

/** Appends in flight at once: the event store writes those queued in one turn as one transaction (its group commit). */
const APPEND_GROUP = 1_000;

/**
 * The read-model databases of `dataDir` removed (derived data: the next start fills them from zero
 * by replaying the log, as a first start over an imported log does). The credential store, the
 * event log and the other stores are separate files and stay.
 */
function dropReadModels(dataDir: string): void {
  const layout = readModelLayout(dataDir);
  const files = new Set([layout.default, ...Object.values(layout.collections), ...Object.values(layout.checkpoints)]);
  for (const file of files) for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, file + suffix), { force: true });
  rmSync(join(dataDir, READ_MODEL_LAYOUT_FILE), { force: true });
}

/**
 * Three starts of the app on `dataDir`: the organization through the API (projectors on); the
 * messages appended with the projectors off (RUN_PROJECTORS=false), `APPEND_GROUP` at a time so
 * that each of the event store's group commits holds that many message streams; then, the read
 * models dropped, the app with its projectors, whose first start replays the whole log into a
 * fresh database in full batches (the cheap fresh-load mode of a rebuild, the search index built
 * once at its end: docs/messages.md) instead of following a thousand small live batches (the
 * earlier build: ~530 messages a second).
 */
export async function buildHistoryOrganization(dataDir: string, options: HistoryOptions): Promise<HistoryOrganization> {
  const { users, channels, subscribers, messages } = options;
  let realmId: number;
  let sender: { userId: number };
  let auth: string;
  let subs: HistoryChannel[];
  {
    const { app, port } = await startApp(dataDir);
    try {
      ({ realmId, sender, auth } = await createBenchRealm(app));
      const others = await seedUsers(app, realmId, users - 1);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const api = { port, auth, agent };
      progress(`${fmtInt(users)} users; creating ${channels} channels of ${subscribers} subscribers`);
      for (let c = 0; c < channels; c++) {
        const members = Array.from({ length: subscribers - 1 }, (_, i) => others[(c * (subscribers - 1) + i) % others.length]);
        await jsonOk(api, 'POST', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: `channel ${c}` }]), principals: JSON.stringify([sender.userId, ...members]) });
      }
      subs = (await jsonOk(api, 'GET', '/api/v1/users/me/subscriptions', { include_subscribers: 'true' })).subscriptions as HistoryChannel[];
      agent.destroy();
    } finally {
      await app.close();
    }
  }
  const began = now();
  let position = 0n;
  {
    const { app } = await startApp(dataDir, OFF);
    // Nobody listens for client events here; the reactor would wait for projectors that are off.
    await app.get(ClientEventReactor).stop();
    try {
      const events = app.get<EventStorePort>(EVENT_STORE);
      // Time-ordered event ids, as the app's own appends draw them: random ones would land all
      // over the event id index (its unique B-tree), which slows the append as the log grows.
      const random = app.get<RandomPort>(RANDOM);
      const eventId = () => random.timeOrderedUuid?.() ?? randomUUID();
      const first = await app.get<IdAllocatorPort>(ID_ALLOCATOR).nextBlock('message', messages);
      const append = (i: number) => {
        const messageId = first + i;
        const channel = subs[i % subs.length];
        const content = options.content(i);
        const data: MessageSent['data'] = {
          realmId, messageId, senderId: sender.userId, recipient: { type: 'stream', streamId: channel.stream_id, streamName: channel.name, topic: `topic ${Math.floor(i / subs.length) % 10}` },
          content, renderedContent: `<p>${content}</p>`, client: 'bench', isMeMessage: false, hasLink: false, hasImage: false, hasAttachment: false,
          recipientIds: [...channel.subscribers].sort((a, b) => a - b), readUserIds: [sender.userId], mentionedUserIds: [], streamWildcardMentioned: false,
          topicWildcardMentionedUserIds: [], localId: null, queueId: null, at: new Date().toISOString(),
        };
        return events.appendToStream(messageStream(messageId), [{ id: eventId(), type: 'MessageSent', data, metadata: { schemaVersion: CURRENT_SCHEMA_VERSION } }], { expectedRevision: 'no_stream' });
      };
      for (let from = 0; from < messages; from += APPEND_GROUP) {
        const to = Math.min(messages, from + APPEND_GROUP);
        // Queued in one turn, so one group commit; the positions come back in the order queued.
        const results = await Promise.all(Array.from({ length: to - from }, (_, k) => append(from + k)));
        position = results[results.length - 1].position;
        if (Math.floor(to / options.progressEvery) > Math.floor(from / options.progressEvery)) progress(`  ${fmtInt(to)} of ${fmtInt(messages)} messages appended (${fmtInt(to / ((now() - began) / 1000))} msg/s)`);
      }
    } finally {
      await app.close();
    }
  }
  const appendMs = now() - began;
  dropReadModels(dataDir);
  const { app } = await startApp(dataDir);
  try {
    const projector = app.get(Projector);
    // (Usually already there: the app's start waits for the first replay.)
    const caughtUp = projector.waitFor(position, 24 * 3_600_000);
    // Progress while the projectors catch up (a 10,000,000-message build takes a while).
    const ticker = setInterval(() => progress(`  catching up: ${fmtNum((now() - began - appendMs) / 1000, 0)} s`), 60_000);
    try {
      await caughtUp;
    } finally {
      clearInterval(ticker);
    }
    const projectedMs = now() - began;
    await options.afterProjected?.(app);
    return { auth, realmId, senderId: sender.userId, channels: subs, appendMs, projectedMs };
  } finally {
    await app.close();
  }
}
