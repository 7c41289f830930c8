/**
 * What the application-level benchmarks share: the app on embedded stores in a temp directory,
 * listening on loopback; users seeded in one append; and writing a script's own section of
 * docs/benchmarks.md between its markers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CommandBus } from '@nestjs/cqrs';
import { CreateRealmCommand, CredentialVault, CreateUserCommand, EVENT_STORE, type EventStorePort, ID_ALLOCATOR, type IdAllocatorPort } from '@app/application';
import { loadConfig } from '@app/config';
import { CURRENT_SCHEMA_VERSION, operatorActor, usersStream } from '@app/domain';
import { createLogger } from '@app/infrastructure';
import { Projector } from '@app/projections';
import { AppModule } from '../apps/api/src/app.module';
import { configureHttp } from '../apps/api/src/http/configure-http';
import { createHttpAdapter } from '../apps/api/src/http/http-adapter';
import type { AppConfig } from '@app/config';
import { type BenchResult, fmtNum, machineInfo, progress } from './support';

export const HOST = '127.0.0.1';

/**
 * The app on `dataDir`; `env` overrides the bench's settings (RUN_PROJECTORS: 'false' for an app
 * that only appends), `overrides` the loaded configuration (settings with no variable, e.g. sealMessageTexts).
 */
export async function startApp(dataDir: string, env: Record<string, string> = {}, overrides: Partial<AppConfig> = {}) {
  const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', HOST, RATE_LIMIT_USER_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0', ...env }), ...overrides };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, logger: createLogger('silent') }), createHttpAdapter(), { logger: false, bodyParser: false });
  configureHttp(app, config);
  await app.init();
  await app.listen(0, HOST);
  return { app, port: ((app.getHttpServer() as http.Server).address() as AddressInfo).port };
}

/** A new organization with one member, sender@bench.test, and the Authorization header that signs in as them. */
export async function createBenchRealm(app: NestExpressApplication): Promise<{ realmId: number; sender: { userId: number; apiKey: string }; auth: string }> {
  const bus = app.get(CommandBus);
  const { realmId } = await bus.execute(new CreateRealmCommand('bench', 'Bench'));
  const sender = await bus.execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: 'sender@bench.test', fullName: 'Sender', role: 'member', password: null }));
  return { realmId, sender, auth: `Basic ${Buffer.from(`sender@bench.test:${sender.apiKey}`).toString('base64')}` };
}

/** n users in one append to the organization's users stream (what CreateUser would append, n times). */
export async function seedUsers(app: NestExpressApplication, realmId: number, n: number): Promise<number[]> {
  const events = app.get<EventStorePort>(EVENT_STORE);
  const first = await app.get<IdAllocatorPort>(ID_ALLOCATOR).nextBlock('user', n);
  const at = new Date().toISOString();
  const ids = Array.from({ length: n }, (_, i) => first + i);
  // Their keys go to the credential store, as CreateUser's handler does; the events name the entries.
  const vault = app.get(CredentialVault);
  const keyIds = await Promise.all(ids.map((userId) => vault.storeApiKey(realmId, userId, randomUUID().replace(/-/g, ''))));
  const { revision } = await events.readStream(usersStream(realmId));
  const { position } = await events.appendToStream(
    usersStream(realmId),
    ids.map((userId, i) => ({
      id: randomUUID(),
      type: 'UserCreated',
      data: { realmId, userId, email: `user${userId}@bench.test`, fullName: `User ${userId}`, role: 'member', isBot: false, botType: null, botOwnerId: null, apiKeyId: keyIds[i], passwordId: null, timezone: '', actorId: null, at },
      metadata: { schemaVersion: CURRENT_SCHEMA_VERSION },
    })),
    { expectedRevision: revision },
  );
  await app.get(Projector).waitFor(position, 600_000);
  return ids;
}

/** Replaces (or appends) the section between `start` and `end` in `doc`. */
export function writeDocSection(doc: string, start: string, end: string, title: string, result: BenchResult): void {
  const m = machineInfo();
  const lines = [
    start,
    '',
    `## ${title}`,
    '',
    `Last run: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}, \`${result.command}\`, ${fmtNum(result.durationMs / 1000, 0)} s; ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}.`,
    '',
    '| measurement | result | detail |',
    '| --- | ---: | --- |',
    ...result.rows.map((r) => `| ${r.metric} | ${fmtNum(r.value, 1)} ${r.unit} | ${(r.detail ?? '').replace(/\|/g, '\\|')} |`),
    '',
    ...(result.targets ?? []).map((t) => `- Target: ${t.description}: **${t.met ? 'met' : 'missed'}**`),
    ...result.notes.map((n) => `- ${n}`),
    '',
    end,
  ];
  const section = lines.join('\n');
  const existing = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const from = existing.indexOf(start.split(' (')[0]);
  const to = existing.indexOf(end);
  writeFileSync(doc, from >= 0 && to > from ? `${existing.slice(0, from)}${section}${existing.slice(to + end.length)}` : `${existing.replace(/\s*$/, '\n\n')}${section}\n`);
  progress(`results written to ${doc}`);
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type JsonResponse = { status: number; body: any };

/**
 * One request to the app over a keep-alive agent, as the Python bindings send it: parameters in
 * the query string for GET and DELETE, form-encoded in the body otherwise. Shared by the benches so
 * that each measures the server, not its own client.
 */
export function jsonRequest(
  target: { port: number; auth: string; agent: http.Agent },
  method: HttpMethod,
  path: string,
  params: Record<string, string> = {},
): Promise<JsonResponse> {
  const form = new URLSearchParams(params).toString();
  const inQuery = method === 'GET' || method === 'DELETE';
  const url = inQuery && form ? `${path}?${form}` : path;
  const bodyHeaders = inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) };
  return new Promise((done, reject) => {
    const req = http.request({ host: HOST, port: target.port, method, path: url, agent: target.agent, headers: { authorization: target.auth, ...bodyHeaders } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    if (!inQuery) req.write(form);
    req.end();
  });
}

/** jsonRequest that insists on HTTP 200 and returns the body. */
export async function jsonOk(target: { port: number; auth: string; agent: http.Agent }, method: HttpMethod, path: string, params: Record<string, string> = {}): Promise<any> {
  const response = await jsonRequest(target, method, path, params);
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  return response.body;
}

/**
 * One keep-alive connection at a time, as a single client would hold it. `reconnect` opens a fresh
 * one after a long pause (the server closes idle keep-alive connections after 5 s).
 */
export function singleConnection() {
  let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    ok: (api: { port: number; auth: string }, method: HttpMethod, path: string, params: Record<string, string> = {}) => jsonOk({ ...api, agent }, method, path, params),
    reconnect: () => {
      agent.destroy();
      agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    },
  };
}
