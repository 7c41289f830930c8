import type { INestApplicationContext } from '@nestjs/common';
import { EVENT_STORE, READ_STORE } from '@app/application';
import type { AppConfig } from '@app/config';
import type { PrometheusMetrics } from '@app/infrastructure';
import { MetricsSources } from '../../api/src/metrics/metrics-sources';
import { startMetricsServer } from '../../api/src/metrics/metrics-server';

/**
 * The worker's own /metrics (WORKER_METRICS_PORT on METRICS_HOST): its projectors' positions and
 * lag, scheduled messages pending and its deliveries' lateness, its appends, its process.
 * `port` 0 listens on an ephemeral port (tests); main.ts skips the listener when the setting is 0.
 */
export async function startWorkerMetrics(app: INestApplicationContext, metrics: PrometheusMetrics, config: AppConfig, port = config.metrics.workerPort) {
  new MetricsSources(metrics, app.get(EVENT_STORE), app.get(READ_STORE)).onApplicationBootstrap();
  return startMetricsServer(metrics, { host: config.metrics.host, port, token: config.metrics.token });
}
