/**
 * HTTP ceiling: the same keep-alive load against (a) a bare node:http server answering a tiny JSON
 * hello, (b) the real application (AppModule on the embedded stores, built as apps/api/src/main.ts
 * builds it) answering GET /health, and, to separate framework cost from application cost, (c) a
 * minimal Nest + Express application with one hello controller. All listen on ephemeral loopback
 * ports in this process; the load generator runs in a worker thread, so on two cores server and
 * client get one core each. Targets are loaded one after the other.
 *
 *   node dist/bench/http-ceiling.js [--connections 32] [--duration 10] [--warmup 2] [--requests 0]
 *        [--client raw,http] [--target bare,nest,app] [--json FILE]
 *
 * `--target app` (or any subset) loads only those servers, e.g. under `node --cpu-prof`.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '@app/config';
import { createLogger, PinoNestLogger } from '@app/infrastructure';
import { AppModule } from '../apps/api/src/app.module';
import { configureHttp } from '../apps/api/src/http/configure-http';
import { createHttpAdapter } from '../apps/api/src/http/http-adapter';
import { DevelopmentOrganization } from '../apps/api/src/development/development-organization';
import { type LoadClient, type LoadOptions, type LoadResult, runLoadInWorker } from './load-generator';
import {
  type BenchResult,
  commandLine,
  emitResult,
  fmtInt,
  fmtNum,
  intArg,
  now,
  parseArgs,
  printRows,
  progress,
  type ResultRow,
  runMain,
  stringArg,
  tempDir,
} from './support';

const HOST = '127.0.0.1';

function startBareServer(): Promise<{ port: number; close(): Promise<void> }> {
  const body = Buffer.from(JSON.stringify({ msg: 'hello', result: 'success' }));
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    );
  });
}

/** The application as main.ts starts it, with a test configuration on a temp data dir. */
async function startApp(dataDir: string): Promise<{ port: number; close(): Promise<void> }> {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', HOST });
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, logger }), createHttpAdapter(), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  configureHttp(app, config);
  await app.init();
  await app.get(DevelopmentOrganization).ensure();
  await app.listen(0, HOST);
  const server = app.getHttpServer() as http.Server;
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}

@Controller()
class HelloController {
  @Get()
  hello() {
    return { msg: 'hello', result: 'success' };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

/** The framework floor: Nest on Express with one controller, no middleware, guard or interceptor. */
async function startMinimalNest(): Promise<{ port: number; close(): Promise<void> }> {
  const app = await NestFactory.create<NestExpressApplication>(HelloModule, { logger: false, bodyParser: false });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(0, HOST);
  const server = app.getHttpServer() as http.Server;
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}

/** One request with node:http, to check the target answers 200 before loading it. */
function probe(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: HOST, port, path, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

async function main() {
  const args = parseArgs();
  const connections = Math.max(1, intArg(args, 'connections', 32));
  const durationMs = intArg(args, 'duration', 10) * 1000;
  const warmupMs = intArg(args, 'warmup', 2) * 1000;
  const maxRequests = intArg(args, 'requests', 0);
  const clients = stringArg(args, 'client', 'raw,http')
    .split(',')
    .map((c) => c.trim()) as LoadClient[];
  for (const c of clients) if (c !== 'raw' && c !== 'http') throw new Error('--client takes raw, http or raw,http');
  const only = stringArg(args, 'target', 'bare,nest,app').split(',').map((t) => t.trim());
  for (const t of only) if (!['bare', 'nest', 'app'].includes(t)) throw new Error('--target takes a list of bare, nest, app');
  const began = now();
  const dir = tempDir('http');
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const ratios: string[] = [];
  try {
    const bare = await startBareServer();
    progress(`bare node:http server on ${HOST}:${bare.port}`);
    const nest = await startMinimalNest();
    progress(`minimal Nest application on ${HOST}:${nest.port}`);
    const appStart = now();
    const app = await startApp(dir.path);
    progress(`application on ${HOST}:${app.port} (started in ${fmtInt(now() - appStart)} ms)`);
    const targets = [
      { key: 'bare', name: 'bare node:http, JSON hello', port: bare.port, path: '/' },
      { key: 'nest', name: 'minimal Nest + Express, JSON hello', port: nest.port, path: '/' },
      { key: 'app', name: 'application GET /health', port: app.port, path: '/health' },
    ].filter((t) => only.includes(t.key));
    for (const t of targets) {
      const answer = await probe(t.port, t.path);
      if (answer.status !== 200) throw new Error(`${t.name} answered ${answer.status}: ${answer.body}`);
      notes.push(`${t.name} answers ${Buffer.byteLength(answer.body)} bytes: \`${answer.body}\``);
    }
    try {
      for (const client of clients) {
        const results = new Map<string, LoadResult>();
        for (const t of targets) {
          const options: LoadOptions = { host: HOST, port: t.port, path: t.path, connections, durationMs, warmupMs, maxRequests, client };
          progress(`${client} client → ${t.name}: ${connections} connections, ${warmupMs / 1000} s warm-up + ${durationMs / 1000} s${maxRequests ? ` or ${fmtInt(maxRequests)} requests` : ''}`);
          const r = await runLoadInWorker(options);
          if (r.errors > 0 || r.non2xx > 0) notes.push(`${client} → ${t.name}: ${r.errors} errors, ${r.non2xx} non-2xx responses.`);
          progress(`  ${fmtInt(r.requestsPerSecond)} req/s, p50 ${fmtNum(r.latencyMs.p50)} ms, p99 ${fmtNum(r.latencyMs.p99)} ms`);
          rows.push({
            metric: `${t.name} (${client} client)`,
            value: r.requestsPerSecond,
            unit: 'req/s',
            detail: `p50 ${fmtNum(r.latencyMs.p50)} ms, p99 ${fmtNum(r.latencyMs.p99)} ms, max ${fmtNum(r.latencyMs.max, 1)} ms; ${fmtInt(r.requests)} requests`,
          });
          results.set(t.key, r);
        }
        const base = results.get('bare');
        if (!base) continue;
        for (const [key, label] of [['app', 'application'], ['nest', 'minimal Nest']] as const) {
          const r = results.get(key);
          if (!r) continue;
          const ratio = r.requestsPerSecond / base.requestsPerSecond;
          ratios.push(`${client} client: ${label} reaches ${fmtNum(ratio * 100, 0)}% of bare node:http's req/s (1 : ${fmtNum(1 / ratio, 1)}).`);
          rows.push({
            metric: `${label} / bare node:http (${client} client)`,
            value: ratio * 100,
            unit: '%',
            detail: `p99 ${fmtNum(r.latencyMs.p99)} ms vs ${fmtNum(base.latencyMs.p99)} ms`,
          });
        }
      }
    } finally {
      await app.close();
      await nest.close();
      await bare.close();
    }
  } finally {
    dir.remove();
  }
  notes.push(...ratios);
  notes.push(
    `${connections} keep-alive connections, closed loop; the load generator runs in a worker thread of the same process. ` +
      '`raw` is a minimal node:net HTTP/1.1 client; `http` is node:http with a keep-alive Agent (its own CPU cost caps what it can measure).',
  );
  const result: BenchResult = {
    name: 'http-ceiling',
    title: 'HTTP ceiling: bare node:http vs the application',
    command: commandLine(),
    params: { connections, durationS: durationMs / 1000, warmupS: warmupMs / 1000, maxRequests, client: clients.join(','), target: only.join(',') },
    rows,
    notes,
    durationMs: now() - began,
  };
  printRows(result.title, rows);
  emitResult(args, result);
}

runMain(main);
