/**
 * What the application and the projections report for monitoring. A port, so that the inner
 * layers never import a metrics library: apps wire the Prometheus implementation
 * (libs/infrastructure/src/system/prometheus-metrics.ts); NO_METRICS is the default elsewhere.
 * Every method is called on hot paths: implementations must be cheap and never throw.
 */
export interface MetricsPort {
  /** One HTTP request finished: its method, route pattern (never the raw path), status, duration. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** One append to the event store (a batch of events to one stream) took this long. */
  eventStoreAppend(seconds: number): void;
  /** A scheduled message was delivered this long after its scheduled time. */
  scheduledDelivery(latenessSeconds: number): void;
  /**
   * A command's append found its stream moved on by another process: `retried` after a backoff, or
   * `gave_up` past its time budget (answered 503; DeciderRunner, docs/consistency-boundaries.md).
   */
  commandConflict(outcome: 'retried' | 'gave_up'): void;
}

export const METRICS = Symbol('METRICS');

export const NO_METRICS: MetricsPort = {
  httpRequest() {},
  eventStoreAppend() {},
  scheduledDelivery() {},
  commandConflict() {},
};
