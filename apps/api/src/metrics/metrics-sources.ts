import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { countEventsBetween, EVENT_STORE, EventQueues, type EventStorePort, READ_STORE, type ReadStorePort, SCHEDULED_MESSAGES } from '@app/application';
import { PrometheusMetrics } from '@app/infrastructure';
import { ALL_PROJECTIONS, ProjectionRebuilder, USER_MESSAGES_PROJECTION } from '@app/projections';

/** A scrape reads at most this many events to count a lag on EventStoreDB (estimated beyond). */
const LAG_COUNT_LIMIT = 10_000;
const PROJECTION_NAMES = [...ALL_PROJECTIONS.map((p) => p.name), USER_MESSAGES_PROJECTION];

/**
 * Tells the Prometheus gauges where to read at scrape time (nothing is counted on the request
 * path): the projections' checkpoints against the log's head, the scheduled messages pending, and,
 * in the API, its event queues and rebuilds. Used by the API and the worker.
 */
@Injectable()
export class MetricsSources implements OnApplicationBootstrap {
  constructor(
    private readonly metrics: PrometheusMetrics,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Optional() private readonly queues?: EventQueues,
    @Optional() private readonly rebuilder?: ProjectionRebuilder,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.setSources({
      projections: async () => {
        const [head, checkpoints] = await Promise.all([this.events.headPosition(), this.readStore.getCheckpoints()]);
        // Lag in events, not in positions (EventStoreDB's are commit<<64|prepare); each distinct
        // checkpoint is counted once, reading at most LAG_COUNT_LIMIT events on EventStoreDB.
        const counted = new Map<string, number>();
        const rows = [];
        for (const name of PROJECTION_NAMES) {
          const position = checkpoints[name];
          const key = position?.toString() ?? '';
          if (!counted.has(key)) counted.set(key, (await countEventsBetween(this.events, position, head, { limit: LAG_COUNT_LIMIT })).count);
          rows.push({ name, position: Number(position ?? 0n), lag: counted.get(key)! });
        }
        return rows;
      },
      scheduledPending: () => this.readStore.count(SCHEDULED_MESSAGES, { delivered: false, failed: false }),
      ...(this.queues ? { eventQueues: () => this.queues!.size } : {}),
      ...(this.rebuilder
        ? {
            rebuild: () => {
              const status = this.rebuilder!.status();
              return status && (status.phase === 'replaying' || status.phase === 'switching') ? status : undefined;
            },
          }
        : {}),
    });
  }
}
