import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { EVENT_STORE, EventQueues, type EventStorePort, READ_STORE, type ReadStorePort, SCHEDULED_MESSAGES } from '@app/application';
import { PrometheusMetrics } from '@app/infrastructure';
import { ALL_PROJECTIONS, ProjectionRebuilder, USER_MESSAGES_PROJECTION } from '@app/projections';

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
        return PROJECTION_NAMES.map((name) => {
          const position = checkpoints[name] ?? 0n;
          const lag = head !== undefined && head > position ? head - position : 0n;
          return { name, position: Number(position), lag: Number(lag) };
        });
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
