import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { request as httpRequest } from 'node:http';
import { CURRENT_SCHEMA_VERSION } from '@app/domain';
import { SCHEDULER } from '@app/application';
import type { TimerScheduler } from '@app/infrastructure';
import { PrometheusMetrics } from '@app/infrastructure';
import { ProjectionRebuilder, Projector } from '@app/projections';
import { ApiTestClient, expectSuccess } from '../support';
import { NestFactory } from '@nestjs/core';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { startMetricsServer } from '../../apps/api/src/metrics/metrics-server';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { startWorkerMetrics } from '../../apps/worker/src/worker-metrics';

/** GET /metrics (issue #22): Prometheus text format, the named series, and who may read them. */
jest.setTimeout(60_000);

/** The value of one sample (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => given[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] })));
  afterEach(() => api.close());

  const scrape = async () => {
    const response = await api.http.get('/metrics');
    expect(response.status).toBe(200);
    return response.text;
  };

  it('answers loopback clients in Prometheus text format with every named series', async () => {
    const response = await api.http.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = response.text;
    for (const [type, name] of [
      ['histogram', 'http_request_duration_seconds'],
      ['histogram', 'event_store_append_duration_seconds'],
      ['gauge', 'projection_position'],
      ['gauge', 'projection_lag_events'],
      ['gauge', 'event_queues_open'],
      ['gauge', 'scheduled_messages_pending'],
      ['histogram', 'scheduled_message_delivery_lateness_seconds'],
      ['gauge', 'projection_rebuild_running'],
      ['gauge', 'projection_rebuild_done_ratio'],
      ['gauge', 'projection_rebuild_events_done'],
      ['gauge', 'projection_rebuild_events_total'],
      ['gauge', 'projection_rebuild_eta_seconds'],
      ['counter', 'process_cpu_user_seconds_total'],
      ['gauge', 'process_resident_memory_bytes'],
      ['gauge', 'nodejs_eventloop_lag_seconds'],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
    }
    // One position and lag per projection, the per-user message state included, all caught up.
    for (const projection of ['users', 'messages', 'user_messages']) {
      expect(sample(text, 'projection_position', { projection })).toBeGreaterThan(0);
      expect(sample(text, 'projection_lag_events', { projection })).toBe(0);
    }
  });

  it('counts each request under its method, route pattern and status', async () => {
    const key = { method: 'GET', route: '/api/v1/users/:user', status: '200' };
    expect(sample(await scrape(), 'http_request_duration_seconds_count', key)).toBeUndefined();
    expectSuccess(await api.as('hamlet').get(`/api/v1/users/${api.user('cordelia').userId}`));
    expectSuccess(await api.as('hamlet').get(`/api/v1/users/${api.user('iago').userId}`));
    const text = await scrape();
    // Two paths with different ids, one series: the route pattern, never the raw path.
    expect(sample(text, 'http_request_duration_seconds_count', key)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...key, le: '+Inf' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_sum', key)).toBeGreaterThan(0);
    expect(text).not.toContain(`/api/v1/users/${api.user('cordelia').userId}"`);
    // An error status is a series of its own; an unmatched path has one label for all.
    await api.as('hamlet').get('/api/v1/users/999999');
    await api.as('hamlet').get('/api/v1/no/such/route');
    const after = await scrape();
    expect(sample(after, 'http_request_duration_seconds_count', { ...key, status: '400' })).toBe(1);
    expect(sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: '(no route)', status: '404' })).toBe(1);
  });

  it('times event-store appends and moves the projections after a send', async () => {
    const before = await scrape();
    const appends = sample(before, 'event_store_append_duration_seconds_count')!;
    const position = sample(before, 'projection_position', { projection: 'messages' })!;
    expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: [api.user('cordelia').userId], content: 'counted' }));
    const after = await scrape();
    expect(sample(after, 'event_store_append_duration_seconds_count')).toBeGreaterThan(appends);
    expect(sample(after, 'projection_position', { projection: 'messages' })).toBeGreaterThan(position);
    expect(sample(after, 'projection_lag_events', { projection: 'messages' })).toBe(0);
  });

  it('shows projection lag while the projector is behind, and zero once it caught up', async () => {
    const projector = api.app.get(Projector);
    await projector.stop();
    const head = (await api.eventStore.headPosition())!;
    for (let i = 0; i < 3; i++) {
      await api.eventStore.appendToStream(`metrics-test-${i}`, [{ id: randomUUID(), type: 'MetricsTestNoted', data: {}, metadata: { schemaVersion: CURRENT_SCHEMA_VERSION } }], { expectedRevision: 'no_stream' });
    }
    const behind = await scrape();
    for (const projection of ['users', 'messages', 'user_messages']) {
      expect(sample(behind, 'projection_lag_events', { projection })).toBe(3);
      expect(sample(behind, 'projection_position', { projection })).toBeLessThanOrEqual(Number(head));
    }
    await projector.start();
    await projector.waitFor((await api.eventStore.headPosition())!);
    const caughtUp = await scrape();
    expect(sample(caughtUp, 'projection_lag_events', { projection: 'users' })).toBe(0);
  });

  it('counts open event queues', async () => {
    expect(sample(await scrape(), 'event_queues_open')).toBe(0);
    expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['message'] }));
    expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['message'] }));
    expect(sample(await scrape(), 'event_queues_open')).toBe(2);
  });

  it('counts scheduled messages pending and observes how late they were delivered', async () => {
    const now = Math.floor(api.clock.now().getTime() / 1000);
    expect(sample(await scrape(), 'scheduled_messages_pending')).toBe(0);
    expectSuccess(await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: [api.user('cordelia').userId], content: 'later', scheduled_delivery_timestamp: now + 300 }));
    const pending = await scrape();
    expect(sample(pending, 'scheduled_messages_pending')).toBe(1);
    expect(sample(pending, 'scheduled_message_delivery_lateness_seconds_count')).toBe(0);
    // Delivered 2 s after its time.
    api.clock.advance(302_000);
    await api.app.get<TimerScheduler>(SCHEDULER).runDue();
    const delivered = await scrape();
    expect(sample(delivered, 'scheduled_messages_pending')).toBe(0);
    expect(sample(delivered, 'scheduled_message_delivery_lateness_seconds_count')).toBe(1);
    expect(sample(delivered, 'scheduled_message_delivery_lateness_seconds_sum')).toBeCloseTo(2, 0);
    expect(sample(delivered, 'scheduled_message_delivery_lateness_seconds_bucket', { le: '1' })).toBe(0);
    expect(sample(delivered, 'scheduled_message_delivery_lateness_seconds_bucket', { le: '5' })).toBe(1);
  });

  it('reports a rebuild while it runs, and nothing once it is done', async () => {
    expect(sample(await scrape(), 'projection_rebuild_running', { target: 'users' })).toBeUndefined();
    const rebuilder = api.app.get(ProjectionRebuilder);
    let during = '';
    // The app's own rebuilder (the one /metrics reads), paused after its copy caught up.
    (rebuilder as unknown as { options: { beforeSwitch?: () => Promise<void> } }).options.beforeSwitch = async () => {
      during = await scrape();
    };
    expectSuccess(await api.as('iago').post('/api/v1/svc/projections/rebuild', { projection: 'users' }));
    await rebuilder.settled();
    expect(sample(during, 'projection_rebuild_running', { target: 'users' })).toBe(1);
    expect(sample(during, 'projection_rebuild_done_ratio')).toBe(1);
    const total = sample(during, 'projection_rebuild_events_total')!;
    expect(total).toBeGreaterThan(0);
    expect(sample(during, 'projection_rebuild_events_done')).toBe(total);
    const after = await scrape();
    expect(sample(after, 'projection_rebuild_running', { target: 'users' })).toBeUndefined();
    expect(sample(after, 'projection_rebuild_done_ratio')).toBe(0);
  });

  describe('access', () => {
    it('refuses a request relayed by a proxy (not really local) without a token', async () => {
      const relayed = await api.http.get('/metrics').set('X-Forwarded-For', '203.0.113.9');
      expect(relayed.status).toBe(403);
      expect(relayed.text).toContain('loopback clients only');
      expect(relayed.text).not.toContain('http_request_duration_seconds');
      // An API key is no way in: /metrics is not part of the chat API.
      const asUser = await api.as('iago').get('/metrics').set('X-Forwarded-For', '203.0.113.9');
      expect(asUser.status).toBe(403);
    });

    it('opens to other addresses with Authorization: Bearer <METRICS_TOKEN>', async () => {
      const token = 'metrics-token-0123456789';
      const withToken = await ApiTestClient.start({ personas: ['hamlet'], config: { metrics: { token, host: '127.0.0.1', port: 0, workerPort: 0 } } });
      try {
        const remote = () => withToken.http.get('/metrics').set('X-Forwarded-For', '203.0.113.9');
        const missing = await remote();
        expect(missing.status).toBe(401);
        expect(missing.headers['www-authenticate']).toBe('Bearer');
        expect((await remote().set('Authorization', `Bearer ${token}x`)).status).toBe(401);
        expect((await remote().set('Authorization', `Basic ${Buffer.from(`x:${token}`).toString('base64')}`)).status).toBe(401);
        const granted = await remote().set('Authorization', `Bearer ${token}`);
        expect(granted.status).toBe(200);
        expect(granted.text).toContain('# TYPE http_request_duration_seconds histogram');
        // Loopback stays open with a token set.
        expect((await withToken.http.get('/metrics')).status).toBe(200);
      } finally {
        await withToken.close();
      }
    });
  });
});

describe('a dedicated metrics listener (the worker\'s WORKER_METRICS_PORT, or METRICS_PORT)', () => {
  const get = (port: number, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'] }));
      }).on('error', reject).end();
    });

  it("the worker's: its view of the shared stores (projections, scheduled messages) and its process", async () => {
    const api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'] });
    const metrics = new PrometheusMetrics();
    const worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot({ config: { ...api.app.get<AppConfig>(APP_CONFIG), runProjectors: false }, clock: api.clock, metrics }),
      { logger: false },
    );
    await worker.init();
    const listener = await startWorkerMetrics(worker, metrics, api.app.get<AppConfig>(APP_CONFIG), 0);
    try {
      const now = Math.floor(api.clock.now().getTime() / 1000);
      expectSuccess(await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: [api.user('cordelia').userId], content: 'later', scheduled_delivery_timestamp: now + 300 }));
      const fromWorker = await get(listener.port, '/metrics');
      expect(fromWorker.status).toBe(200);
      const fromApi = (await api.http.get('/metrics')).text;
      expect(sample(fromWorker.body, 'scheduled_messages_pending')).toBe(1);
      for (const projection of ['users', 'scheduled_messages', 'user_messages']) {
        expect(sample(fromWorker.body, 'projection_position', { projection })).toBe(sample(fromApi, 'projection_position', { projection }));
        expect(sample(fromWorker.body, 'projection_lag_events', { projection })).toBe(0);
      }
      // Its own series: no appends of its own yet, its process metrics.
      expect(sample(fromWorker.body, 'event_store_append_duration_seconds_count')).toBe(0);
      expect(fromWorker.body).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    } finally {
      await listener.close();
      await worker.close();
      await api.close();
    }
  });

  it('serves GET /metrics only; its bind address is the access rule, or the token when one is set', async () => {
    const metrics = new PrometheusMetrics();
    metrics.scheduledDelivery(3);
    const open = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, token: null });
    try {
      const scraped = await get(open.port, '/metrics', { 'X-Forwarded-For': '203.0.113.9' });
      expect(scraped.status).toBe(200);
      expect(scraped.type).toMatch(/^text\/plain;.*version=0\.0\.4/);
      expect(sample(scraped.body, 'scheduled_message_delivery_lateness_seconds_count')).toBe(1);
      expect(scraped.body).toContain('# TYPE process_cpu_user_seconds_total counter');
      expect((await get(open.port, '/api/v1/users/me')).status).toBe(404);
    } finally {
      await open.close();
    }
    const guarded = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, token: 'a-long-enough-token' });
    try {
      expect((await get(guarded.port, '/metrics', { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(401);
      expect((await get(guarded.port, '/metrics', { 'X-Forwarded-For': '203.0.113.9', Authorization: 'Bearer a-long-enough-token' })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('request logs', () => {
  const capture = () => {
    const entries: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) entries.push(JSON.parse(line));
        done();
      },
    });
    return { entries, logger: pino({ level: 'info' }, sink) };
  };

  it('in production: one info line per request with method, route pattern, status, duration and user id', async () => {
    const { entries, logger } = capture();
    const api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'], logger, config: { env: 'production' } });
    try {
      const { userId, apiKey } = api.user('hamlet');
      expectSuccess(await api.as('hamlet').get(`/api/v1/users/${api.user('cordelia').userId}`));
      await api.http.get('/api/v1/users/me').auth(api.user('hamlet').email, 'x'.repeat(32));
      const requests = entries.filter((e) => e.msg === 'request');
      expect(requests).toEqual([
        expect.objectContaining({ level: 30, method: 'GET', route: '/api/v1/users/:user', status: 200, ms: expect.any(Number), userId, reqId: expect.any(String) }),
        expect.objectContaining({ level: 30, method: 'GET', route: '/api/v1/users/me', status: 401 }),
      ]);
      expect(requests[1].userId).toBeUndefined();
      expect(JSON.stringify(entries)).not.toContain(apiKey);
      expect(JSON.stringify(requests)).not.toContain(`/users/${api.user('cordelia').userId}`);
    } finally {
      await api.close();
    }
  });

  it('in development: requests at debug, so an info-level terminal stays quiet', async () => {
    const { entries, logger } = capture();
    const api = await ApiTestClient.start({ personas: ['hamlet'], logger, config: { env: 'development' } });
    try {
      expectSuccess(await api.as('hamlet').get('/api/v1/users/me'));
      expect(entries.filter((e) => e.msg === 'request')).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
