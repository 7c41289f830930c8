/**
 * Issue 23, the write side of a send, in process: sends to a channel of 50 subscribers through the
 * CommandBus (no HTTP), `--concurrency` at a time as concurrent requests would arrive, and per
 * round the process's CPU time per send (`process.cpuUsage`, user + system; the optimizing
 * compilers' threads included, hence the long warm-up) and the WAL bytes each database gained per
 * send with `--wal` (the pages each commit wrote: frames of page size + 24 bytes; the databases'
 * automatic checkpoints are then off during the rounds, and their cost not counted). `--breakdown` adds the CPU time of the synchronous
 * write steps (append transaction, read-store commit, per-user apply, inbox merge), measured by
 * wrapping them.
 *
 *   node dist/bench/send-write.js [--subscribers 50] [--concurrency 16] [--warmup 6000]
 *        [--sends 2000] [--rounds 5] [--breakdown] [--wal] [--keep]
 *
 * Prints only; writes nothing to docs/benchmarks.md.
 */
import 'reflect-metadata';
import http from 'node:http';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, LIVE_READ_MODELS, SendMessageCommand, type UpcastingEventStore } from '@app/application';
import { type Actor } from '@app/domain';
import { SqliteEventStore } from '@app/infrastructure/embedded/sqlite-event-store';
import { SqliteReadStore } from '@app/infrastructure/embedded/sqlite-read-store';
import { SqliteUserMessageStore } from '@app/infrastructure/embedded/sqlite-user-message-store';
import { createBenchRealm, jsonOk, seedUsers, startApp } from './app-harness';
import { fmtNum, intArg, parseArgs, progress, runMain, tempDir } from './support';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** CPU time (the process's) spent in prototype methods (synchronous ones: the time is the method's own). */
const spent = new Map<string, { ms: number; calls: number }>();
function wrap(proto: object, method: string, label: string): void {
  const target = proto as Record<string, (...args: unknown[]) => unknown>;
  const original = target[method];
  if (typeof original !== 'function') return; // not in this version of the code
  target[method] = function (this: unknown, ...args: unknown[]) {
    const t0 = process.cpuUsage();
    try {
      return original.apply(this, args);
    } finally {
      const used = process.cpuUsage(t0);
      const entry = spent.get(label) ?? { ms: 0, calls: 0 };
      entry.ms += (used.user + used.system) / 1000;
      entry.calls++;
      spent.set(label, entry);
    }
  };
}

async function main() {
  const args = parseArgs();
  const subscribers = intArg(args, 'subscribers', 50);
  const concurrency = Math.max(1, intArg(args, 'concurrency', 16));
  const warmup = intArg(args, 'warmup', 6000);
  const perRound = Math.max(1, intArg(args, 'sends', 2000));
  const rounds = Math.max(1, intArg(args, 'rounds', 5));
  if (args.breakdown) {
    wrap(SqliteEventStore.prototype, 'write', 'event-store write (rows)');
    wrap(SqliteEventStore.prototype, 'flush', 'event-store group commit');
    wrap(SqliteReadStore.prototype, 'commit', 'read-store commit (sync part)');
    wrap(SqliteUserMessageStore.prototype, 'applyInTransaction', 'per-user apply (transaction)');
    wrap(SqliteUserMessageStore.prototype, 'mergeStep', 'inbox merge step');
  }
  // --keep: the data directory is left in place (printed), to inspect the databases.
  const dir = tempDir('send-write');
  const { app, port } = await startApp(dir.path);
  try {
    const bus = app.get(CommandBus);
    const { realmId, sender, auth } = await createBenchRealm(app);
    const others = subscribers > 1 ? await seedUsers(app, realmId, subscribers - 1) : [];
    await jsonOk({ port, auth, agent: new http.Agent({ keepAlive: false }) }, 'POST', '/api/v1/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'crowd' }]),
      principals: JSON.stringify([sender.userId, ...others]),
    });
    const actor: Actor = { realmId, userId: sender.userId, role: 'member', isBot: false };
    const content = 'A message under **sustained** load, with a [link](https://example.com).';
    const send = () => bus.execute(new SendMessageCommand({ actor }, { type: 'stream', to: 'crowd', topic: 'load', content, client: 'website' }));
    const sendMany = async (n: number) => {
      let left = n;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (left > 0) {
            left--;
            await send();
          }
        }),
      );
    };
    const rawEvents = app.get<UpcastingEventStore>(EVENT_STORE).raw as SqliteEventStore;
    const live = app.get<{ copies: { databases(): { db: Database.Database; file: string }[] } }>(LIVE_READ_MODELS);
    const dbs: Database.Database[] = [rawEvents.db, ...live.copies.databases().map((d) => d.db)];
    if (args.breakdown && rawEvents.appendWithNextId) {
      const holder = { appendWithNextId: rawEvents.appendWithNextId };
      wrap(holder, 'appendWithNextId', 'append with id (transaction, sync part)');
      rawEvents.appendWithNextId = holder.appendWithNextId;
    }
    progress(`warm-up: ${warmup} sends`);
    await sendMany(warmup);
    const walFiles = () => readdirSync(dir.path, { recursive: true }).map(String).filter((f) => f.endsWith('-wal'));
    const cpu: number[] = [];
    const walPerSend = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      // --wal: the WAL's growth per send, with the automatic checkpoints off for the round (their
      // cost, paid by the committing connection, is then not in the round's CPU time).
      if (args.wal) {
        for (const db of dbs) {
          db.pragma('wal_autocheckpoint = 0');
          db.pragma('wal_checkpoint(TRUNCATE)');
        }
      }
      const sizes = new Map(walFiles().map((f) => [f, statSync(join(dir.path, f)).size]));
      spent.clear();
      const before = process.cpuUsage();
      const t0 = performance.now();
      await sendMany(perRound);
      const wall = performance.now() - t0;
      const used = process.cpuUsage(before);
      const us = (used.user + used.system) / perRound;
      cpu.push(us);
      const wal: string[] = [];
      for (const f of walFiles()) {
        const grown = (statSync(join(dir.path, f)).size - (sizes.get(f) ?? 0)) / perRound;
        if (grown <= 0) continue;
        (walPerSend.get(f) ?? walPerSend.set(f, []).get(f)!).push(grown);
        wal.push(`${f} ${fmtNum(grown / 4120, 2)} frames`);
      }
      const parts = [...spent].map(([label, { ms, calls }]) => `${label} ${fmtNum((ms * 1000) / perRound, 1)} µs (${fmtNum(calls / perRound, 2)} calls)`);
      progress(`round ${round}: ${fmtNum(us, 1)} µs CPU per send (${fmtNum((used.system / (used.user + used.system)) * 100, 0)} % system), ${fmtNum(perRound / (wall / 1000), 0)} sends/s; WAL per send: ${wal.join(', ')}${parts.length ? `; ${parts.join(', ')}` : ''}`);
      if (args.wal && round === rounds) {
        // Which B-trees the round's frames were pages of (the page number is in each frame's header).
        for (const db of dbs) {
          const file = `${db.name}-wal`;
          const wal = readFileSync(file);
          const pageSize = wal.readUInt32BE(8);
          const frames = new Map<number, number>();
          for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
            const page = wal.readUInt32BE(at);
            frames.set(page, (frames.get(page) ?? 0) + 1);
          }
          const owner = new Map((db.prepare('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[]).map((r) => [r.pageno, r.name]));
          const byObject = new Map<string, { frames: number; pages: number }>();
          for (const [page, n] of frames) {
            const name = owner.get(page) ?? (page === 1 ? 'page 1 (header, schema)' : 'free or new page');
            const entry = byObject.get(name) ?? { frames: 0, pages: 0 };
            entry.frames += n;
            entry.pages++;
            byObject.set(name, entry);
          }
          const top = [...byObject].sort((a, b) => b[1].frames - a[1].frames).slice(0, 14);
          console.log(`${file}: frames per send by B-tree (distinct pages in the round): ${top.map(([name, e]) => `${name} ${fmtNum(e.frames / perRound, 2)} (${e.pages})`).join(', ')}`);
        }
      }
      if (args.wal) for (const db of dbs) db.pragma('wal_autocheckpoint = 10000');
    }
    console.log(`send CPU per send, median of ${rounds} rounds: ${fmtNum(median(cpu), 1)} µs (rounds ${cpu.map((v) => fmtNum(v, 1)).join(', ')})`);
    for (const [f, values] of walPerSend) console.log(`${f}: ${fmtNum(median(values) / 4120, 2)} WAL frames per send`);
  } finally {
    await app.close();
    if (args.keep) progress(`data directory kept: ${dir.path}`);
    else dir.remove();
  }
}

runMain(main);
