/**
 * The organization the history benchmarks measure on (bench/history-scale.ts, bench/search.ts):
 * a development-style realm with `users` accounts and `channels` channels of `subscribers` each,
 * through the API, then `messages` channel messages appended straight to the event store (no HTTP,
 * one `MessageSent` each, round-robin over the channels, ten topics a channel) and projected.
 * Only the message texts differ between the benchmarks (`content`).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { EVENT_STORE, type EventStorePort, ID_ALLOCATOR, type IdAllocatorPort } from '@app/application';
import { CURRENT_SCHEMA_VERSION, type MessageSent, messageStream } from '@app/domain';
import { Projector } from '@app/projections';
import { createBenchRealm, jsonOk, seedUsers, startApp } from './app-harness';
import { fmtInt, now, progress } from './support';

export type HistoryChannel = { name: string; stream_id: number; subscribers: number[] };

export type HistoryOrganization = {
  auth: string;
  realmId: number;
  senderId: number;
  channels: HistoryChannel[];
  /** Appending the messages, and until the projectors had applied them (ms, from the first append). */
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

export async function buildHistoryOrganization(dataDir: string, options: HistoryOptions): Promise<HistoryOrganization> {
  const { users, channels, subscribers, messages } = options;
  const { app, port } = await startApp(dataDir);
  try {
    const { realmId, sender, auth } = await createBenchRealm(app);
    const others = await seedUsers(app, realmId, users - 1);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const api = { port, auth, agent };
    progress(`${fmtInt(users)} users; creating ${channels} channels of ${subscribers} subscribers`);
    for (let c = 0; c < channels; c++) {
      const members = Array.from({ length: subscribers - 1 }, (_, i) => others[(c * (subscribers - 1) + i) % others.length]);
      await jsonOk(api, 'POST', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: `channel ${c}` }]), principals: JSON.stringify([sender.userId, ...members]) });
    }
    const subs = (await jsonOk(api, 'GET', '/api/v1/users/me/subscriptions', { include_subscribers: 'true' })).subscriptions as HistoryChannel[];
    agent.destroy();
    const events = app.get<EventStorePort>(EVENT_STORE);
    const first = await app.get<IdAllocatorPort>(ID_ALLOCATOR).nextBlock('message', messages);
    const began = now();
    let position = 0n;
    for (let i = 0; i < messages; i++) {
      const messageId = first + i;
      const channel = subs[i % subs.length];
      const content = options.content(i);
      const data: MessageSent['data'] = {
        realmId, messageId, senderId: sender.userId, recipient: { type: 'stream', streamId: channel.stream_id, streamName: channel.name, topic: `topic ${Math.floor(i / subs.length) % 10}` },
        content, renderedContent: `<p>${content}</p>`, client: 'bench', isMeMessage: false, hasLink: false, hasImage: false, hasAttachment: false,
        recipientIds: [...channel.subscribers].sort((a, b) => a - b), readUserIds: [sender.userId], mentionedUserIds: [], streamWildcardMentioned: false,
        topicWildcardMentionedUserIds: [], localId: null, queueId: null, at: new Date().toISOString(),
      };
      ({ position } = await events.appendToStream(messageStream(messageId), [{ id: randomUUID(), type: 'MessageSent', data, metadata: { schemaVersion: CURRENT_SCHEMA_VERSION } }], { expectedRevision: 'no_stream' }));
      if ((i + 1) % options.progressEvery === 0) progress(`  ${fmtInt(i + 1)} of ${fmtInt(messages)} messages appended`);
    }
    const appendMs = now() - began;
    await app.get(Projector).waitFor(position, 3_600_000);
    const projectedMs = now() - began;
    await options.afterProjected?.(app);
    return { auth, realmId, senderId: sender.userId, channels: subs, appendMs, projectedMs };
  } finally {
    await app.close();
  }
}
