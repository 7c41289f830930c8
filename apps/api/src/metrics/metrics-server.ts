import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrometheusMetrics } from '@app/infrastructure';
import { METRICS_REFUSALS, metricsAccess } from './metrics-access';

/**
 * A listener of its own that answers GET /metrics only: the worker's (WORKER_METRICS_PORT), or the
 * API's when METRICS_PORT is set. Access as in metricsAccess, as a dedicated listener.
 */
export async function startMetricsServer(metrics: PrometheusMetrics, options: { host: string; port: number; token: string | null }): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this listener serves GET /metrics only.\n');
      return;
    }
    const access = metricsAccess(req, options.token, true);
    if (access !== 'ok') {
      const refusal = METRICS_REFUSALS[access];
      res.writeHead(refusal.status, { 'content-type': 'text/plain', ...(access === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {}) }).end(refusal.message);
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
