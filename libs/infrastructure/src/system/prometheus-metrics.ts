import type { MetricsPort } from '@app/application';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the gauges read when Prometheus scrapes (wired by the app: apps/api/src/metrics). */
export type MetricsSources = {
  /** Every projection's checkpoint and how many positions of the log it has not applied. */
  projections?: () => Promise<{ name: string; position: number; lag: number }[]>;
  /** Event queues (/register) open in this process. */
  eventQueues?: () => number;
  /** Scheduled messages not delivered yet (neither delivered nor failed). */
  scheduledPending?: () => Promise<number>;
  /** The rebuild under way, if any. */
  rebuild?: () => { target: string; done: number; total: number; etaSeconds: number | null } | undefined;
};

/** Process metrics (CPU, memory, event loop, GC) are the process's: collected once, whatever the number of apps. */
let processRegistry: Registry | undefined;

/**
 * The Prometheus view of one application (API or worker): histograms fed through the MetricsPort
 * hooks, gauges read from their sources at scrape time, and the process metrics. Each app has its
 * own registry, so tests running several apps in one process do not share series.
 */
export class PrometheusMetrics implements MetricsPort {
  readonly registry = new Registry();
  private sources: MetricsSources = {};
  private projectionRows: { name: string; position: number; lag: number }[] = [];
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  /** One labelled child per method, route and status seen: the per-request cost is a map lookup. */
  private readonly httpChildren = new Map<string, { observe(value: number): void }>();
  private readonly appends: Histogram;
  private readonly lateness: Histogram;
  private readonly conflicts: Counter;

  constructor() {
    const registers = [this.registry];
    this.http = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
      registers,
    });
    this.appends = new Histogram({
      name: 'event_store_append_duration_seconds',
      help: 'Appends to the event store (one batch of events to one stream).',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.lateness = new Histogram({
      name: 'scheduled_message_delivery_lateness_seconds',
      help: 'How long after its scheduled time a scheduled message was delivered.',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers,
    });
    this.conflicts = new Counter({
      name: 'command_append_conflicts_total',
      help: 'Appends that found their stream moved on by another process: retried, or gave up past COMMAND_RETRY_BUDGET_MS (503).',
      labelNames: ['outcome'],
      registers,
    });
    const sources = () => this.sources;
    // Both projection gauges read the rows text() fetched once for this scrape.
    const projectionRows = () => this.projectionRows;
    new Gauge({
      name: 'projection_position',
      help: 'Position of the last event each projection applied (its checkpoint).',
      labelNames: ['projection'],
      registers,
      async collect() {
        this.reset();
        for (const p of await projectionRows()) this.set({ projection: p.name }, p.position);
      },
    });
    new Gauge({
      name: 'projection_lag_events',
      help: 'Events of the log each projection has not applied yet (on EventStoreDB estimated beyond 10,000).',
      labelNames: ['projection'],
      registers,
      async collect() {
        this.reset();
        for (const p of await projectionRows()) this.set({ projection: p.name }, p.lag);
      },
    });
    new Gauge({
      name: 'event_queues_open',
      help: 'Event queues (/register) open in this process.',
      registers,
      collect() {
        this.set(sources().eventQueues?.() ?? 0);
      },
    });
    new Gauge({
      name: 'scheduled_messages_pending',
      help: 'Scheduled messages waiting for delivery.',
      registers,
      async collect() {
        this.set((await sources().scheduledPending?.()) ?? 0);
      },
    });
    new Gauge({
      name: 'projection_rebuild_running',
      help: '1 while a blue/green rebuild runs in this process.',
      labelNames: ['target'],
      registers,
      collect() {
        this.reset();
        const rebuild = sources().rebuild?.();
        if (rebuild) this.set({ target: rebuild.target }, 1);
      },
    });
    new Gauge({
      name: 'projection_rebuild_events_done',
      help: 'Events of the log the running rebuild has replayed.',
      registers,
      collect() {
        this.set(sources().rebuild?.()?.done ?? 0);
      },
    });
    new Gauge({
      name: 'projection_rebuild_events_total',
      help: 'Events of the log the running rebuild replays (the head when it started).',
      registers,
      collect() {
        this.set(sources().rebuild?.()?.total ?? 0);
      },
    });
    new Gauge({
      name: 'projection_rebuild_eta_seconds',
      help: 'Estimated seconds until the running rebuild has caught up (0 when none runs or no estimate yet).',
      registers,
      collect() {
        this.set(sources().rebuild?.()?.etaSeconds ?? 0);
      },
    });
    new Gauge({
      name: 'projection_rebuild_done_ratio',
      help: 'Share of the event log the running rebuild has replayed (0 to 1).',
      registers,
      collect() {
        const rebuild = sources().rebuild?.();
        this.set(rebuild && rebuild.total > 0 ? rebuild.done / rebuild.total : 0);
      },
    });
  }

  /** The app tells where the gauges read from (once its providers exist). */
  setSources(sources: MetricsSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.http.labels(method, route, String(status));
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  eventStoreAppend(seconds: number): void {
    this.appends.observe(seconds);
  }

  scheduledDelivery(latenessSeconds: number): void {
    this.lateness.observe(latenessSeconds);
  }

  commandConflict(outcome: 'retried' | 'gave_up'): void {
    this.conflicts.inc({ outcome });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text: this app's series, then the process's. */
  async text(): Promise<string> {
    if (!processRegistry) {
      processRegistry = new Registry();
      collectDefaultMetrics({ register: processRegistry });
    }
    this.projectionRows = (await this.sources.projections?.()) ?? [];
    return (await this.registry.metrics()) + '\n' + (await processRegistry.metrics());
  }
}
