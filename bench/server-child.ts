/**
 * The child process of bench/server-process.ts: starts one server (its options in the BENCH_CHILD
 * environment variable), reports `ready` with its port, then answers `usage` with its own CPU time
 * and memory and stops on `stop`.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { writeHeapSnapshot } from 'node:v8';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CommandBus } from '@nestjs/cqrs';
import { CreateRealmCommand, CreateUserCommand } from '@app/application';
import { loadConfig } from '@app/config';
import { operatorActor } from '@app/domain';
import { createLogger, limitHeapGrowth, PinoNestLogger } from '@app/infrastructure';
import { AppModule } from '../apps/api/src/app.module';
import { configureHttp } from '../apps/api/src/http/configure-http';
import { createHttpAdapter } from '../apps/api/src/http/http-adapter';
import { jsonOk, seedUsers } from './app-harness';
import type { ChildOptions, ReadyMessage } from './server-process';

const HOST = '127.0.0.1';
const options = JSON.parse(process.env.BENCH_CHILD ?? '{}') as ChildOptions;

@Controller()
class HelloController {
  @Get()
  hello() {
    return { msg: 'hello', result: 'success' };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

const listening = (server: http.Server) => (server.address() as AddressInfo).port;

async function startBare(): Promise<{ port: number; close(): Promise<void> }> {
  const body = Buffer.from(JSON.stringify({ msg: 'hello', result: 'success' }));
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  return { port: listening(server), close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Nest on Express with one controller, no middleware, guard or interceptor; on Nest's own Express
 * adapter, or (`nest-adapter`) on the application's (createHttpAdapter: requests and responses
 * built with Express's prototypes).
 */
async function startNest(adapter: 'nest' | 'application'): Promise<{ port: number; close(): Promise<void> }> {
  const app =
    adapter === 'application'
      ? await NestFactory.create<NestExpressApplication>(HelloModule, createHttpAdapter(), { logger: false, bodyParser: false })
      : await NestFactory.create<NestExpressApplication>(HelloModule, { logger: false, bodyParser: false });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(0, HOST);
  return { port: listening(app.getHttpServer() as http.Server), close: () => app.close() };
}

/** The application as main.ts starts it (rate limits off: a load from one user would hit them). */
async function startApp(): Promise<{ port: number; close(): Promise<void>; app: NestExpressApplication }> {
  limitHeapGrowth(); // as apps/api/src/main.ts
  const config = {
    ...loadConfig({
    NODE_ENV: options.nodeEnv,
    DATA_DIR: options.dataDir ?? '',
    LOG_LEVEL: options.logLevel ?? 'silent',
    PORT: '0',
    HOST,
    RATE_LIMIT_USER_REQUESTS: '0',
    RATE_LIMIT_IP_REQUESTS: '0',
    DEV_BOOTSTRAP: 'false',
    ...options.env,
    }),
    ...options.configOverrides,
  };
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, logger }), createHttpAdapter(), { logger: new PinoNestLogger(logger), bodyParser: false });
  configureHttp(app, config);
  await app.init();
  await app.listen(0, HOST);
  return { app, port: listening(app.getHttpServer() as http.Server), close: () => app.close() };
}

async function organization(app: NestExpressApplication, port: number, subscribers: number): Promise<Pick<ReadyMessage, 'auth' | 'realmId' | 'userIds'>> {
  const bus = app.get(CommandBus);
  const { realmId } = await bus.execute(new CreateRealmCommand('bench', 'Bench'));
  const sender = await bus.execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: 'sender@bench.test', fullName: 'Sender', role: 'member', password: null }));
  const auth = `Basic ${Buffer.from(`sender@bench.test:${sender.apiKey}`).toString('base64')}`;
  const others = subscribers > 1 ? await seedUsers(app, realmId, subscribers - 1) : [];
  const agent = new http.Agent({ keepAlive: false });
  await jsonOk({ port, auth, agent }, 'POST', '/api/v1/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'crowd' }]),
    principals: JSON.stringify([sender.userId, ...others]),
  });
  return { auth, realmId, userIds: [sender.userId, ...others] };
}

/** Linux: the resident set split into anonymous memory (heaps), file pages and shared memory (/proc/self/status). */
function residentParts(): { rssAnon?: number; rssFile?: number; rssShmem?: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Number(match[1]) * 1024 : undefined;
    };
    return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile'), rssShmem: kb('RssShmem') };
  } catch {
    return {};
  }
}

async function main() {
  const server: { port: number; close(): Promise<void>; app?: NestExpressApplication } =
    options.mode === 'bare'
      ? await startBare()
      : options.mode === 'nest' || options.mode === 'nest-adapter'
        ? await startNest(options.mode === 'nest' ? 'nest' : 'application')
        : await startApp();
  const bootMs = process.uptime() * 1000; // since the process started, module loading included
  let extra = {};
  if (options.mode === 'app' && options.setup?.kind === 'organization') {
    extra = await organization(server.app!, server.port, options.setup.subscribers);
  }
  process.on('message', (message: { type: string; gc?: boolean; file?: string }) => {
    if (message.type === 'heapsnapshot') {
      process.send!({ type: 'heapsnapshot', file: writeHeapSnapshot(message.file) });
      return;
    }
    if (message.type === 'usage') {
      // A forced full collection first when asked (and the child runs with --expose-gc): live heap, not garbage not yet collected.
      const gc = (globalThis as { gc?: () => void }).gc;
      if (message.gc && gc) gc();
      const cpu = process.cpuUsage();
      const memory = process.memoryUsage();
      process.send!({
        type: 'usage',
        usage: {
          cpuUs: cpu.user + cpu.system,
          userUs: cpu.user,
          systemUs: cpu.system,
          rss: memory.rss,
          heapUsed: memory.heapUsed,
          heapTotal: memory.heapTotal,
          external: memory.external,
          arrayBuffers: memory.arrayBuffers,
          ...residentParts(),
        },
      });
    } else if (message.type === 'stop') {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
  process.on('disconnect', () => process.exit(0));
  const ready: ReadyMessage = { type: 'ready', port: server.port, bootMs, ...extra };
  process.send!(ready);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench server (${options.mode}) failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
