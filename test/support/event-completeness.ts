import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import pino from 'pino';
import type request from 'supertest';
import { ClientEventReactor } from '@app/application';
import { seededRandom } from '@app/testing';
import { ApiTestClient } from './api-test-client';
import { eventShapeProblems } from './event-shapes';

/**
 * Event completeness as a property (issue 39): every change a user can see through the REST API
 * reaches each of that user's event queues, once, in order, in Zulip's shape.
 *
 * A seed draws a workload (`drawWorkload`): who is in which channel, which queues each user
 * registers (some narrowed), and a list of steps — sends (channel, direct, group direct, with
 * user and user-group mentions), content edits, topic edits and moves between public and private
 * channels (every propagate mode, Notification Bot notices on or off), deletions, reactions,
 * flags, subscriptions and unsubscriptions (private channels included), message reports (whose
 * notices Notification Bot posts into the private moderation channel). `runWorkload` plays it
 * through HTTP on a running server, isolated from other runs on the same server (its own channels,
 * user group and messages), then reads every queue and checks (`checkRun`):
 *
 * - the queue's event ids are 0, 1, 2, … (no gap, no duplicate), message events come in message
 *   id order, and no message event comes twice;
 * - every event passes the shape check of test/support/event-shapes.ts;
 * - folding the queue's `message`, `update_message`, `delete_message`, `reaction` and
 *   `update_message_flags` events gives the messages `GET /messages` shows the user afterwards
 *   (ids, content, channel, topic, reactions, flags), narrowed as the queue is;
 * - folding its `subscription` and `stream` events into the state its register answered gives
 *   what a fresh `POST /register` answers (subscriptions with their subscribers, visible channels);
 * - no client event mapper failed (the reactor logs it and the event is lost for everyone).
 *
 * Steps name messages by the index of the step that sent them, so that any subset of the steps is
 * a workload too: `minimizeWorkload` (ddmin) replays subsets, each on a fresh server, down to the
 * fewest steps that still fail. Steps that the server refuses in a subset (a reaction to a message
 * the user cannot see any more) are skipped; only a server error is a failure of the step.
 */

export const PEOPLE = ['iago', 'shiva', 'hamlet', 'cordelia', 'polonius'] as const;
export type Who = (typeof PEOPLE)[number];
/**
 * The run's channels: two public, two private (shared and protected history), and `quiet`, public,
 * which moves never touch (channel-narrowed queues watch it: Zulip filters only `message` events by
 * a queue's narrow, so a message moved into a watched channel would reach GET /messages but not the
 * queue).
 */
export const CHANNELS = ['pub1', 'pub2', 'priv1', 'priv2', 'quiet'] as const;
export type ChannelKey = (typeof CHANNELS)[number];
const MOVABLE: ChannelKey[] = ['pub1', 'pub2', 'priv1', 'priv2'];
const PRIVATE: ChannelKey[] = ['priv1', 'priv2'];
const TOPICS = ['alpha', 'beta', 'gamma'];
const EMOJI = ['octopus', 'car', 'zulip', 'heart'];

/** A mention in a message's content: a user, the run's user group, or none. */
export type Mention = { user: Who } | { group: true } | null;
/** `msg` is the index (in `steps`) of the step that sent the message. */
export type Step =
  | { kind: 'send-channel'; who: Who; channel: ChannelKey; topic: string; mention: Mention }
  | { kind: 'send-dm'; who: Who; to: Who[]; mention: Mention }
  | { kind: 'edit-content'; who: Who; msg: number; mention: Mention }
  | { kind: 'edit-topic'; who: Who; msg: number; topic: string; propagate: Propagate; notifyOld: boolean; notifyNew: boolean }
  | { kind: 'move'; who: Who; msg: number; channel: ChannelKey; topic: string | null; propagate: Propagate; notifyOld: boolean; notifyNew: boolean }
  | { kind: 'delete'; who: Who; msg: number }
  | { kind: 'react'; who: Who; msg: number; emoji: string; op: 'add' | 'remove' }
  | { kind: 'flag'; who: Who; msgs: number[]; flag: 'read' | 'starred'; op: 'add' | 'remove' }
  | { kind: 'subscribe'; who: Who; channel: ChannelKey }
  | { kind: 'unsubscribe'; who: Who; channel: ChannelKey }
  | { kind: 'report'; who: Who; msg: number }
  /** A step left out by the minimizer (indexes stay: later steps name messages by them). */
  | { kind: 'skip' };
type Propagate = 'change_one' | 'change_later' | 'change_all';

/** A queue's narrow (register `narrow`), named by what it watches. */
export type QueueNarrow = { dm: true } | { sender: Who } | { channel: 'quiet' } | null;
export type QueueSpec = { who: Who; narrow: QueueNarrow; bulkDeletion: boolean };

export type Workload = {
  seed: number;
  /** Who is subscribed to each channel at the start (iago to all of them). */
  members: Record<ChannelKey, Who[]>;
  groupMembers: Who[];
  queues: QueueSpec[];
  steps: Step[];
};


// ---------------------------------------------------------------------------------------------
// The workload
// ---------------------------------------------------------------------------------------------

function rng(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    subset: <T>(items: readonly T[], p: number): T[] => items.filter(() => next() < p),
  };
}

/** The workload of a seed: `steps` steps (default 12). */
export function drawWorkload(seed: number, steps = 12): Workload {
  const r = rng(seed * 7919 + 13);
  const members = {} as Record<ChannelKey, Who[]>;
  for (const channel of CHANNELS) {
    const others = PEOPLE.filter((p) => p !== 'iago');
    members[channel] = ['iago', ...r.subset(others, PRIVATE.includes(channel) ? 0.4 : 0.7)];
  }
  const queues: QueueSpec[] = [];
  for (const who of PEOPLE) {
    // Every user has an unnarrowed queue (the one the narrowed ones are checked against), some a second.
    queues.push({ who, narrow: null, bulkDeletion: r.chance(0.8) });
    if (r.chance(0.25)) queues.push({ who, narrow: null, bulkDeletion: true });
    if (r.chance(0.5)) {
      const narrow: QueueNarrow = r.pick<QueueNarrow>([{ dm: true }, { sender: r.pick(PEOPLE) }, { channel: 'quiet' }]);
      queues.push({ who, narrow, bulkDeletion: true });
    }
  }
  // What the generator remembers, to draw steps that mostly make sense (the server decides).
  const subscribed = new Map(CHANNELS.map((c) => [c, new Set(members[c])]));
  const sent: { index: number; who: Who; channel: ChannelKey | null }[] = [];
  const out: Step[] = [];
  const mention = (): Mention => (r.chance(0.6) ? null : r.chance(0.5) ? { user: r.pick(PEOPLE) } : { group: true });
  const propagate = (): Propagate => r.pick(['change_one', 'change_later', 'change_all'] as const);
  for (let i = 0; i < steps; i++) {
    const dice = r.next();
    if (sent.length < 2 || dice < 0.3) {
      if (r.chance(0.7)) {
        const channel = r.pick(CHANNELS);
        const inside = [...subscribed.get(channel)!];
        const who = r.chance(0.9) ? r.pick(inside) : r.pick(PEOPLE);
        out.push({ kind: 'send-channel', who, channel, topic: r.pick(TOPICS), mention: mention() });
        sent.push({ index: out.length - 1, who, channel });
      } else {
        const who = r.pick(PEOPLE);
        const to = [...new Set([r.pick(PEOPLE.filter((p) => p !== who)), ...r.subset(PEOPLE.filter((p) => p !== who), 0.2)])];
        out.push({ kind: 'send-dm', who, to, mention: mention() });
        sent.push({ index: out.length - 1, who, channel: null });
      }
      continue;
    }
    const m = r.pick(sent);
    if (dice < 0.4) {
      out.push({ kind: 'edit-content', who: r.chance(0.9) ? m.who : r.pick(PEOPLE), msg: m.index, mention: mention() });
    } else if (dice < 0.47 && m.channel) {
      out.push({ kind: 'edit-topic', who: r.chance(0.7) ? 'iago' : m.who, msg: m.index, topic: r.pick(TOPICS), propagate: propagate(), notifyOld: r.chance(0.5), notifyNew: r.chance(0.7) });
    } else if (dice < 0.58 && m.channel && m.channel !== 'quiet') {
      const channel = r.pick(MOVABLE.filter((c) => c !== m.channel));
      out.push({
        kind: 'move', who: r.chance(0.85) ? 'iago' : r.pick(['shiva', m.who]), msg: m.index, channel, topic: r.chance(0.5) ? r.pick(TOPICS) : null,
        propagate: propagate(), notifyOld: r.chance(0.5), notifyNew: r.chance(0.7),
      });
      m.channel = channel;
    } else if (dice < 0.63) {
      out.push({ kind: 'delete', who: r.chance(0.8) ? 'iago' : m.who, msg: m.index });
      sent.splice(sent.indexOf(m), 1);
    } else if (dice < 0.76) {
      out.push({ kind: 'react', who: r.pick(PEOPLE), msg: m.index, emoji: r.pick(EMOJI), op: r.chance(0.75) ? 'add' : 'remove' });
    } else if (dice < 0.82) {
      const msgs = [...new Set([m.index, ...r.subset(sent, 0.3).map((s) => s.index)])];
      out.push({ kind: 'flag', who: r.pick(PEOPLE), msgs, flag: r.pick(['read', 'starred'] as const), op: r.chance(0.6) ? 'add' : 'remove' });
    } else if (dice < 0.94) {
      const channel = r.pick(CHANNELS);
      const who = r.pick(PEOPLE.filter((p) => p !== 'iago'));
      const inside = subscribed.get(channel)!;
      if (inside.has(who) && r.chance(0.6)) {
        out.push({ kind: 'unsubscribe', who, channel });
        inside.delete(who);
      } else {
        out.push({ kind: 'subscribe', who, channel });
        inside.add(who);
      }
    } else {
      out.push({ kind: 'report', who: r.pick(PEOPLE), msg: m.index });
    }
  }
  return { seed, members, groupMembers: r.subset(PEOPLE, 0.5), queues, steps: out };
}

/** One line per step, to print a (minimized) workload. */
export function describeWorkload(w: Workload): string {
  const lines = [
    `seed ${w.seed}: members ${JSON.stringify(w.members)}, group ${JSON.stringify(w.groupMembers)}`,
    ...w.queues.map((q, i) => `queue ${i}: ${q.who}${q.narrow ? ` narrow ${JSON.stringify(q.narrow)}` : ''}${q.bulkDeletion ? '' : ' (no bulk_message_deletion)'}`),
    ...w.steps.flatMap((s, i) => (s.kind === 'skip' ? [] : [`step ${i}: ${JSON.stringify(s)}`])),
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Running it
// ---------------------------------------------------------------------------------------------

/** What a run saw of its steps, per kind: done (200) and refused (4xx; the workload went on). */
export type StepTally = Record<string, { done: number; refused: number }>;

type QueueRun = { spec: QueueSpec; queueId: string; initial: Record<string, any> };
export type Run = {
  workload: Workload;
  prefix: string;
  channelIds: Record<ChannelKey, number>;
  channelNames: Record<ChannelKey, string>;
  moderationChannelId: number;
  groupName: string;
  /** Message ids sent by step index. */
  sentIds: Map<number, number>;
  /** Messages older than the run. */
  firstMessageId: number;
  queues: QueueRun[];
  tally: StepTally;
};

/** A server for runs: an ApiTestClient whose error logs are kept, to find client event mappers that failed. */
export type CompletenessServer = {
  api: ApiTestClient;
  errors: Record<string, any>[];
  /** What the last checked run did: its steps' tally and how many events its queues got. */
  lastRun?: { tally: StepTally; eventCount: number };
};

export async function startCompletenessServer(): Promise<CompletenessServer> {
  const errors: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        try {
          errors.push(JSON.parse(line));
        } catch {
          errors.push({ msg: line });
        }
      }
      done();
    },
  });
  const api = await ApiTestClient.start({ personas: [...PEOPLE], logger: pino({ level: 'error' }, sink) });
  return { api, errors };
}

let runCounter = 0;

class StepError extends Error {}

async function call(what: string, response: request.Test | Promise<request.Response>): Promise<{ ok: boolean; body: Record<string, any> }> {
  const r = await response;
  if (r.status === 200 && r.body?.result === 'success') return { ok: true, body: r.body };
  if (r.status >= 400 && r.status < 500 && r.body?.result === 'error') return { ok: false, body: r.body };
  throw new StepError(`${what}: ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`);
}

async function must(what: string, response: request.Test | Promise<request.Response>): Promise<Record<string, any>> {
  const { ok, body } = await call(what, response);
  if (!ok) throw new StepError(`${what}: refused: ${JSON.stringify(body)}`);
  return body;
}

const FULL_NAMES: Record<Who, string> = { iago: 'Iago', shiva: 'Shiva', hamlet: 'King Hamlet', cordelia: 'Cordelia Lear', polonius: 'Polonius' };

function narrowTerms(run: Pick<Run, 'channelNames'>, api: ApiTestClient, narrow: QueueNarrow): [string, string][] {
  if (narrow === null) return [];
  if ('dm' in narrow) return [['is', 'dm']];
  if ('sender' in narrow) return [['sender', api.user(narrow.sender).email]];
  return [['channel', run.channelNames[narrow.channel]]];
}

/** Waits until every API application's reactor has delivered everything in the log, and the log stopped growing. */
export async function settle(api: ApiTestClient): Promise<void> {
  const reactors = api.apps.map((app) => app.get(ClientEventReactor));
  for (let tries = 0; tries < 2000; tries++) {
    const head = await api.eventStore.headPosition();
    if (head === undefined || reactors.every((r) => r.position >= head)) {
      await sleep(5);
      if ((await api.eventStore.headPosition()) === head) return;
    } else {
      await sleep(2);
    }
  }
  throw new Error('the client event reactors did not catch up with the log');
}

/** Plays a workload on a server: set-up, queues, steps. The queues' events are read by checkRun. */
export async function runWorkload(server: CompletenessServer, workload: Workload): Promise<Run> {
  const { api } = server;
  const prefix = `c${workload.seed}r${++runCounter}`;
  const id = (who: Who) => api.user(who).userId;
  const channelNames = Object.fromEntries(CHANNELS.map((c) => [c, `${prefix}-${c}`])) as Record<ChannelKey, string>;
  // Channels: iago creates them with their first members.
  for (const channel of CHANNELS) {
    const isPrivate = PRIVATE.includes(channel);
    await must(`create ${channel}`, api.as('iago').post('/api/v1/users/me/subscriptions', {
      subscriptions: [{ name: channelNames[channel] }],
      principals: workload.members[channel].map(id),
      ...(isPrivate ? { invite_only: true, history_public_to_subscribers: channel === 'priv1' } : {}),
    }));
  }
  const streams = (await must('channels', api.as('iago').get('/api/v1/streams', { include_all: true }))).streams as { name: string; stream_id: number }[];
  const idOf = (name: string) => streams.find((s) => s.name === name)!.stream_id;
  const channelIds = Object.fromEntries(CHANNELS.map((c) => [c, idOf(channelNames[c])])) as Record<ChannelKey, number>;
  // The moderation channel (private: iago and shiva) gets the reports' notices.
  const moderation = `${prefix}-mods`;
  await must('moderation channel', api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: moderation }], principals: [id('iago'), id('shiva')], invite_only: true }));
  const moderationChannelId = (await must('moderation channel id', api.as('iago').get('/api/v1/get_stream_id', { stream: moderation }))).stream_id as number;
  await must('moderation request channel', api.as('iago').patch('/api/v1/realm', { moderation_request_channel_id: moderationChannelId }));
  const groupName = `${prefix}-g`;
  await must('user group', api.as('iago').post('/api/v1/user_groups/create', { name: groupName, description: 'the run\'s group', members: workload.groupMembers.map(id) }));

  const run: Run = {
    workload, prefix, channelIds, channelNames, moderationChannelId, groupName, sentIds: new Map(), firstMessageId: 0, queues: [], tally: {},
  };
  for (const spec of workload.queues) {
    const body = await must(`register ${spec.who}`, api.as(spec.who).post('/api/v1/register', {
      apply_markdown: true,
      include_subscribers: true,
      fetch_event_types: ['message', 'subscription', 'stream'],
      narrow: narrowTerms(run, api, spec.narrow),
      client_capabilities: { notification_settings_null: true, bulk_message_deletion: spec.bulkDeletion, user_avatar_url_field_optional: false, stream_typing_notifications: true, user_settings_object: true, empty_topic_name: true },
    }));
    run.queues.push({ spec, queueId: body.queue_id as string, initial: body });
    run.firstMessageId = Math.max(run.firstMessageId, (body.max_message_id as number) + 1);
  }

  const mentionText = (m: Mention) => (m === null ? '' : 'user' in m ? ` @**${FULL_NAMES[m.user]}**` : ` @*${groupName}*`);
  const tally = (kind: string, ok: boolean) => {
    const t = (run.tally[kind] ??= { done: 0, refused: 0 });
    if (ok) t.done++;
    else t.refused++;
  };
  for (const [index, step] of workload.steps.entries()) {
    if (step.kind === 'skip') continue;
    const msgId = 'msg' in step ? run.sentIds.get(step.msg) : undefined;
    if ('msg' in step && msgId === undefined) continue; // its send was left out (minimizing) or refused
    const as = api.as(step.who);
    const where = `step ${index} (${step.kind})`;
    let result: { ok: boolean; body: Record<string, any> };
    switch (step.kind) {
      case 'send-channel':
        result = await call(where, as.post('/api/v1/messages', { type: 'stream', to: channelIds[step.channel], topic: step.topic, content: `message ${index}${mentionText(step.mention)}` }));
        if (result.ok) run.sentIds.set(index, result.body.id as number);
        break;
      case 'send-dm':
        result = await call(where, as.post('/api/v1/messages', { type: 'direct', to: step.to.map(id), content: `direct ${index}${mentionText(step.mention)}` }));
        if (result.ok) run.sentIds.set(index, result.body.id as number);
        break;
      case 'edit-content':
        result = await call(where, as.patch(`/api/v1/messages/${msgId}`, { content: `edited at ${index}${mentionText(step.mention)}` }));
        break;
      case 'edit-topic':
        result = await call(where, as.patch(`/api/v1/messages/${msgId}`, {
          topic: step.topic, propagate_mode: step.propagate, send_notification_to_old_thread: step.notifyOld, send_notification_to_new_thread: step.notifyNew,
        }));
        break;
      case 'move':
        result = await call(where, as.patch(`/api/v1/messages/${msgId}`, {
          stream_id: channelIds[step.channel], ...(step.topic === null ? {} : { topic: step.topic }), propagate_mode: step.propagate,
          send_notification_to_old_thread: step.notifyOld, send_notification_to_new_thread: step.notifyNew,
        }));
        break;
      case 'delete':
        result = await call(where, as.delete(`/api/v1/messages/${msgId}`));
        break;
      case 'react':
        result = step.op === 'add'
          ? await call(where, as.post(`/api/v1/messages/${msgId}/reactions`, { emoji_name: step.emoji }))
          : await call(where, as.delete(`/api/v1/messages/${msgId}/reactions`, { emoji_name: step.emoji }));
        break;
      case 'flag': {
        const ids = step.msgs.map((m) => run.sentIds.get(m)).filter((m): m is number => m !== undefined);
        if (ids.length === 0) continue;
        result = await call(where, as.post('/api/v1/messages/flags', { messages: ids, op: step.op, flag: step.flag }));
        break;
      }
      case 'subscribe':
        // An administrator subscribes people (to private channels too); a user may subscribe themselves to a public one.
        result = await call(where, (PRIVATE.includes(step.channel) || step.who === 'polonius' ? api.as('iago') : as).post('/api/v1/users/me/subscriptions', {
          subscriptions: [{ name: channelNames[step.channel] }], principals: [id(step.who)],
        }));
        break;
      case 'unsubscribe':
        result = await call(where, as.delete('/api/v1/users/me/subscriptions', { subscriptions: [channelNames[step.channel]] }));
        break;
      case 'report':
        result = await call(where, as.post(`/api/v1/messages/${msgId}/report`, { report_type: 'spam', description: `report ${index}` }));
        break;
    }
    tally(step.kind, result.ok);
  }
  await settle(api);
  return run;
}

// ---------------------------------------------------------------------------------------------
// Checking it
// ---------------------------------------------------------------------------------------------

/** What a queue (or GET /messages) says of one message; fields left undefined are unknown to the queue. */
type Seen = {
  id: number;
  /** Known only from update_message (the message moved into the user's view): its content, reactions and topic may be unknown. */
  partial: boolean;
  content?: string;
  channel?: number | null;
  topic?: string;
  reactions?: string[];
  flags?: string[];
  sender?: string;
  /**
   * In a channel the user lost access to (unsubscribed from a private channel; a guest from any):
   * Zulip sends no more events about it (event_recipient_ids_for_action_on_messages), though the
   * row stays. Not compared until the access or a move makes it live again (then partial).
   */
  stale?: boolean;
};

/** Channels the user reads only while subscribed (private ones; every one for a guest), and those they are subscribed to at the end. */
type Access = { needsSubscription: Set<number>; subscribed: Set<number> };

const reactionKey = (r: Record<string, any>) => `${r.emoji_name}/${r.emoji_code}/${r.reaction_type}/${r.user_id}`;
const flagSet = (flags: string[]) => [...new Set(flags.filter((f) => f !== 'historical'))].sort();
const sortStrings = (xs: string[]) => [...xs].sort();

/** Folds a queue's events into the messages it knows (partial entries for the unnarrowed queues only). */
function foldMessages(events: Record<string, any>[], narrowed: boolean, access: Access): Map<number, Seen> {
  const seen = new Map<number, Seen>();
  const inChannel = (channel: number) => [...seen.values()].filter((m) => m.channel === channel);
  for (const e of events) {
    switch (e.type) {
      case 'subscription':
        for (const s of e.op === 'add' || e.op === 'remove' ? e.subscriptions : []) {
          if (!access.needsSubscription.has(s.stream_id)) continue;
          if (e.op === 'remove') for (const m of inChannel(s.stream_id)) m.stale = true;
          // Access again: what happened meanwhile was not told; the messages are known by id and channel only.
          else for (const m of inChannel(s.stream_id)) if (m.stale) seen.set(m.id, { id: m.id, partial: true, channel: m.channel });
        }
        break;
      case 'message': {
        const m = e.message;
        seen.set(m.id, seenMessage({ ...m, flags: e.flags }));
        break;
      }
      case 'update_message': {
        const ids: number[] = e.message_ids ?? [e.message_id];
        for (const id of ids) {
          let m = seen.get(id);
          if (m?.stale && 'new_stream_id' in e) {
            m = { id, partial: true };
            seen.set(id, m);
          }
          if (!m) {
            if (narrowed || e.rendering_only) continue;
            m = { id, partial: true };
            seen.set(id, m);
          }
          if ('new_stream_id' in e) m.channel = e.new_stream_id;
          else if (m.partial && 'stream_id' in e && m.channel === undefined) m.channel = e.stream_id;
          if ('subject' in e) m.topic = e.subject;
          if (id === e.message_id) {
            if ('rendered_content' in e) m.content = e.rendered_content;
            if (Array.isArray(e.flags)) m.flags = flagSet(e.flags);
          }
        }
        break;
      }
      case 'delete_message':
        for (const id of e.message_ids ?? [e.message_id]) seen.delete(id);
        break;
      case 'reaction': {
        const m = seen.get(e.message_id);
        if (!m?.reactions) break;
        const key = reactionKey(e);
        if (e.op === 'add') m.reactions = sortStrings([...m.reactions, key]);
        else {
          const at = m.reactions.indexOf(key);
          if (at >= 0) m.reactions = m.reactions.filter((_, i) => i !== at);
          else m.reactions = [...m.reactions, `removed but never added: ${key}`];
        }
        break;
      }
      case 'update_message_flags': {
        const ids: number[] = e.all ? [...seen.keys()] : e.messages;
        for (const id of ids) {
          const m = seen.get(id);
          if (!m?.flags) continue;
          m.flags = flagSet(e.op === 'add' ? [...m.flags, e.flag] : m.flags.filter((f) => f !== e.flag));
        }
        break;
      }
    }
  }
  return seen;
}

type Channels = { subscriptions: Map<number, number[]>; streams: number[] };

/** Folds subscription and stream events into the state a register answered, restricted to the run's channels. */
function foldChannels(initial: Record<string, any>, events: Record<string, any>[], ours: Set<number>): Channels {
  const subscriptions = new Map<number, Set<number>>();
  for (const s of initial.subscriptions ?? []) if (ours.has(s.stream_id)) subscriptions.set(s.stream_id, new Set(s.subscribers ?? []));
  const streams = new Set<number>((initial.streams ?? []).map((s: { stream_id: number }) => s.stream_id).filter((id: number) => ours.has(id)));
  for (const e of events) {
    if (e.type === 'subscription') {
      if (e.op === 'add') for (const s of e.subscriptions) if (ours.has(s.stream_id)) subscriptions.set(s.stream_id, new Set(s.subscribers ?? []));
      if (e.op === 'remove') for (const s of e.subscriptions) subscriptions.delete(s.stream_id);
      if (e.op === 'peer_add' || e.op === 'peer_remove') {
        for (const streamId of e.stream_ids) {
          const subscribers = subscriptions.get(streamId);
          if (!subscribers) continue;
          for (const userId of e.user_ids) {
            if (e.op === 'peer_add') subscribers.add(userId);
            else subscribers.delete(userId);
          }
        }
      }
    }
    if (e.type === 'stream' && e.op === 'create') for (const s of e.streams) if (ours.has(s.stream_id)) streams.add(s.stream_id);
    if (e.type === 'stream' && e.op === 'delete') for (const id of e.stream_ids ?? e.streams.map((s: { stream_id: number }) => s.stream_id)) streams.delete(id);
  }
  return {
    subscriptions: new Map([...subscriptions].map(([id, users]) => [id, [...users].sort((a, b) => a - b)])),
    streams: [...streams].sort((a, b) => a - b),
  };
}

/** A message object (of a `message` event, with its `flags`, or of GET /messages) as the fold keeps it. */
function seenMessage(m: Record<string, any>): Seen {
  return {
    id: m.id,
    partial: false,
    content: m.content,
    channel: m.type === 'stream' ? m.stream_id : null,
    topic: m.type === 'stream' ? m.subject : undefined,
    reactions: sortStrings((m.reactions ?? []).map(reactionKey)),
    flags: flagSet(m.flags ?? []),
    sender: m.sender_email,
  };
}

/** Compares a queue's view of one message with GET /messages', on what the queue knows. */
function differences(queue: Seen, fetched: Seen): string[] {
  const out: string[] = [];
  const fields: (keyof Seen)[] = queue.partial ? ['content', 'channel', 'topic', 'flags'] : ['content', 'channel', 'topic', 'reactions', 'flags'];
  for (const field of fields) {
    if (queue[field] === undefined) continue;
    if (JSON.stringify(queue[field]) !== JSON.stringify(fetched[field])) out.push(`${field}: queue ${JSON.stringify(queue[field])}, GET /messages ${JSON.stringify(fetched[field])}`);
  }
  return out;
}

/** Every problem a run's queues show (empty: the property holds). Deletes the run's queues. */
export async function checkRun(server: CompletenessServer, run: Run): Promise<string[]> {
  const { api } = server;
  const problems: string[] = [];
  const ours = new Set([...Object.values(run.channelIds), run.moderationChannelId]);
  const privateChannels = new Set([run.channelIds.priv1, run.channelIds.priv2, run.moderationChannelId]);
  const fetchCache = new Map<string, Map<number, Seen>>();
  const fetchMessages = async (who: Who, narrow: [string, string][]): Promise<Map<number, Seen>> => {
    const key = `${who} ${JSON.stringify(narrow)}`;
    const cached = fetchCache.get(key);
    if (cached) return cached;
    const body = await must(`GET /messages as ${who}`, api.as(who).get('/api/v1/messages', {
      // The run's messages: from its first id on (anchor newest with num_before would page through every earlier run's).
      anchor: run.firstMessageId, num_before: 0, num_after: 1000, apply_markdown: true,
      narrow: narrow.map(([operator, operand]) => ({ operator, operand })),
    }));
    const out = new Map<number, Seen>();
    for (const m of body.messages as Record<string, any>[]) {
      if (m.id < run.firstMessageId || (m.flags ?? []).includes('historical')) continue;
      out.set(m.id, seenMessage(m));
    }
    fetchCache.set(key, out);
    return out;
  };
  // What a fresh register says, per user (the channels they are subscribed to now also decide which messages are live).
  const freshRegister = new Map(
    await Promise.all(
      [...new Set(run.queues.map((q) => q.spec.who))].map(async (who) => {
        const body = await must(`register ${who} again`, api.as(who).post('/api/v1/register', { include_subscribers: true, fetch_event_types: ['subscription', 'stream'], event_types: ['heartbeat'] }));
        await call('DELETE /events', api.as(who).delete('/api/v1/events', { queue_id: body.queue_id }));
        return [who, foldChannels(body, [], ours)] as const;
      }),
    ),
  );

  const unnarrowed = new Map<Who, Map<number, Seen>>();
  // Every queue read (and then deleted) at once: nothing changes any more.
  const reads = await Promise.all(
    run.queues.map(async (q) => {
      const body = await must(`GET /events of ${q.spec.who}`, api.as(q.spec.who).get('/api/v1/events', { queue_id: q.queueId, last_event_id: -1, dont_block: true }));
      await call('DELETE /events', api.as(q.spec.who).delete('/api/v1/events', { queue_id: q.queueId }));
      return { q, events: body.events as Record<string, any>[] };
    }),
  );
  server.lastRun = { tally: run.tally, eventCount: reads.reduce((n, r) => n + r.events.length, 0) };
  // The unnarrowed queues first: narrowed ones are held against them.
  reads.sort((a, b) => Number(a.q.spec.narrow !== null) - Number(b.q.spec.narrow !== null));
  for (const { q, events } of reads) {
    const who = q.spec.who;
    const name = `queue ${run.queues.indexOf(q)} (${who}${q.spec.narrow ? `, narrow ${JSON.stringify(q.spec.narrow)}` : ''})`;
    // Once, in order.
    events.forEach((e, i) => {
      if (e.id !== i) problems.push(`${name}: event ${i} has id ${e.id} (ids must be 0, 1, 2, …)`);
    });
    const messageIds = events.filter((e) => e.type === 'message').map((e) => e.message.id as number);
    for (let i = 1; i < messageIds.length; i++) {
      if (messageIds[i] <= messageIds[i - 1]) problems.push(`${name}: message ${messageIds[i]} ${messageIds[i] === messageIds[i - 1] ? 'came twice' : `came after message ${messageIds[i - 1]}`}`);
    }
    // In Zulip's shape (a heartbeat, queued after 50 s without events on a slow machine, has none to check).
    for (const e of events.filter((event) => event.type !== 'heartbeat')) {
      for (const p of eventShapeProblems(e)) {
        problems.push(`${name}: event ${e.id}: ${p}`);
      }
    }
    const fresh = freshRegister.get(who)!;
    // The messages.
    const narrowed = q.spec.narrow !== null;
    const access: Access = { needsSubscription: who === 'polonius' ? ours : privateChannels, subscribed: new Set(fresh.subscriptions.keys()) };
    const live = (m: Seen) => !m.stale && !(typeof m.channel === 'number' && access.needsSubscription.has(m.channel) && !access.subscribed.has(m.channel));
    const model = foldMessages(events, narrowed, access);
    const fetched = await fetchMessages(who, narrowTerms(run, api, q.spec.narrow));
    const reference = narrowed ? unnarrowed.get(who) : undefined;
    if (!narrowed) unnarrowed.set(who, model);
    for (const [id, m] of fetched) {
      // A narrowed queue answers for what its user's unnarrowed queue got in full (a message moved into the narrow never reaches it).
      if (reference && (reference.get(id)?.partial ?? true)) continue;
      if (!live(m) || (model.has(id) && !live(model.get(id)!))) continue;
      const mine = model.get(id);
      if (!mine) {
        problems.push(`${name}: message ${id} (${m.channel === null ? 'direct' : `channel ${m.channel} topic ${m.topic}`}, ${JSON.stringify(m.content)}) is in GET /messages but no event brought it`);
        continue;
      }
      for (const d of differences(mine, m)) problems.push(`${name}: message ${id}: ${d}`);
    }
    for (const [id, m] of model) {
      // An id heard of only in an update_message (one of several moved) may be one the user has no row for: clients ignore it.
      if (live(m) && !m.partial && !fetched.has(id)) problems.push(`${name}: message ${id} is known from the events but not in GET /messages`);
    }
    // Subscriptions and channels.
    const folded = foldChannels(q.initial, events, ours);
    const subs = (c: Channels) => JSON.stringify([...c.subscriptions].sort(([a], [b]) => a - b));
    if (subs(folded) !== subs(fresh)) problems.push(`${name}: subscriptions (channel → subscribers) from the events ${subs(folded)}, from a fresh register ${subs(fresh)}`);
    if (JSON.stringify(folded.streams) !== JSON.stringify(fresh.streams)) problems.push(`${name}: channels from the events ${JSON.stringify(folded.streams)}, from a fresh register ${JSON.stringify(fresh.streams)}`);
  }
  // No event lost for everyone: a mapper that throws loses its event.
  for (const error of server.errors.splice(0)) {
    problems.push(`logged: ${error.msg} ${error.type ?? ''} ${error.err?.message ?? ''}`.trim());
  }
  return problems;
}

/** Plays a workload and checks it: the problems found (empty: it holds). */
export async function workloadProblems(server: CompletenessServer, workload: Workload): Promise<string[]> {
  const run = await runWorkload(server, workload);
  return checkRun(server, run);
}

/**
 * ddmin over a failing workload's steps: the fewest steps that still fail, each candidate replayed
 * on a fresh server (so nothing of an earlier replay counts), within `budget` replays; then the
 * queues of each user that the failure does not need. Memberships are kept. Answers the smallest failing workload and its problems.
 */
export async function minimizeWorkload(
  workload: Workload,
  options: { budget?: number; deadlineMs?: number; log?: (line: string) => void } = {},
): Promise<{ workload: Workload; problems: string[] }> {
  // Past the deadline (a time, Date.now() scale) it stops shrinking and answers the smallest found so far.
  const inTime = () => options.deadlineMs === undefined || Date.now() < options.deadlineMs;
  const replay = async (steps: number[]): Promise<string[]> => {
    const server = await startCompletenessServer();
    try {
      return await workloadProblems(server, subset(workload, steps));
    } catch (error) {
      return [`failed to run: ${(error as Error).message}`];
    } finally {
      await server.api.close();
    }
  };
  let keep = workload.steps.flatMap((s, i) => (s.kind === 'skip' ? [] : [i]));
  let problems = await replay(keep);
  if (problems.length === 0) return { workload, problems };
  let n = 2;
  let budget = options.budget ?? 200;
  while (keep.length >= 2 && budget > 0 && inTime()) {
    const chunk = Math.ceil(keep.length / n);
    let reduced = false;
    for (let start = 0; start < keep.length && budget > 0 && inTime(); start += chunk, budget--) {
      const candidate = [...keep.slice(0, start), ...keep.slice(start + chunk)];
      const found = await replay(candidate);
      if (found.length > 0) {
        [keep, problems, reduced, n] = [candidate, found, true, Math.max(n - 1, 2)];
        options.log?.(`minimize: ${keep.length} steps still fail`);
        break;
      }
    }
    if (!reduced) {
      if (n >= keep.length) break;
      n = Math.min(keep.length, n * 2);
    }
  }
  // Then the queues, a user's all at once (a narrowed queue is checked against its user's unnarrowed one).
  let minimal = subset(workload, keep);
  for (const who of PEOPLE) {
    if (budget-- <= 0 || !inTime()) break;
    const queues = minimal.queues.filter((q) => q.who !== who);
    if (queues.length === minimal.queues.length || queues.length === 0) continue;
    const candidate = { ...minimal, queues };
    const server = await startCompletenessServer();
    try {
      const found = await workloadProblems(server, candidate).catch((error: Error) => [`failed to run: ${error.message}`]);
      if (found.length > 0) [minimal, problems] = [candidate, found];
    } finally {
      await server.api.close();
    }
  }
  return { workload: minimal, problems };
}

/**
 * The workload with only the steps at these indexes. Indexes are kept (steps name messages by the
 * index of their send), so the left-out steps become no-ops.
 */
function subset(workload: Workload, indexes: number[]): Workload {
  const kept = new Set(indexes);
  return { ...workload, steps: workload.steps.map((s, i): Step => (kept.has(i) ? s : { kind: 'skip' })) };
}
