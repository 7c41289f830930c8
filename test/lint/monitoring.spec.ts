import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrometheusMetrics } from '@app/infrastructure';

/**
 * docker/ (the compose "monitoring" profile) cannot run in CI; this keeps it exact: every series
 * the Grafana dashboard queries is one the server exposes, and Prometheus scrapes the listeners
 * the compose file opens.
 */
const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('the monitoring profile (docker/)', () => {
  it('queries only series the API and the worker expose', async () => {
    const exposed = new Set<string>();
    for (const line of (await new PrometheusMetrics().text()).split('\n')) {
      const match = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (!match) continue;
      const [, name, type] = match;
      exposed.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(name + suffix);
    }
    const dashboard = JSON.parse(read('docker/grafana/dashboards/team-chat.json'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const PROMQL = new Set(['sum', 'max', 'by', 'rate', 'histogram_quantile', 'and', 'on', 'le', 'route', 'job', 'status', 'instance', 'projection']);
    const queried = new Set(exprs.flatMap((e) => e.replace(/"[^"]*"|\[[^\]]*\]|\{[^}]*\}/g, ' ').match(/[a-z_][a-z0-9_]*/g) ?? []).filter((w) => !PROMQL.has(w)));
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
    for (const name of ['http_request_duration_seconds_bucket', 'event_store_append_duration_seconds_bucket', 'projection_lag_events', 'projection_position', 'event_queues_open', 'scheduled_messages_pending', 'scheduled_message_delivery_lateness_seconds_bucket', 'projection_rebuild_done_ratio', 'process_resident_memory_bytes']) {
      expect(queried).toContain(name);
    }
    // Every panel reads the provisioned data source.
    const datasource = read('docker/grafana/provisioning/datasources/prometheus.yml');
    const uid = /uid: (\S+)/.exec(datasource)![1];
    expect(dashboard.panels.every((p: { datasource: { uid: string } }) => p.datasource.uid === uid)).toBe(true);
  });

  it('scrapes the metrics listeners the compose file opens', () => {
    const compose = read('docker/docker-compose.yml');
    const prometheus = read('docker/prometheus/prometheus.yml');
    expect(compose).toMatch(/\n {6}METRICS_PORT: "9464"\n/);
    expect(compose).toMatch(/\n {6}WORKER_METRICS_PORT: "9464"\n/);
    expect(compose).toMatch(/\n {2}METRICS_HOST: 0\.0\.0\.0\n/);
    expect(prometheus).toContain('targets: ["api:9464"]');
    expect(prometheus).toContain('targets: ["worker:9464"]');
    expect(compose.match(/profiles: \[monitoring\]/g)).toHaveLength(2);
    expect(compose).toContain('./grafana/dashboards:/var/lib/grafana/dashboards:ro');
  });
});
