import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'ok' | 'unauthorized' | 'forbidden';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Who may read /metrics (docs in README and .env.example):
 * - a client on the same host (a loopback socket, not relayed by a proxy: a reverse proxy on the
 *   host would otherwise make every public request look local);
 * - anyone with `Authorization: Bearer <METRICS_TOKEN>`, when that token is set;
 * - on a dedicated metrics listener (METRICS_PORT, the worker's WORKER_METRICS_PORT) without a
 *   token, anyone who reaches it: its bind address (METRICS_HOST) is the access control.
 */
export function metricsAccess(req: IncomingMessage, token: string | null, dedicatedListener: boolean): MetricsAccess {
  if (token !== null) {
    const given = req.headers.authorization;
    if (typeof given === 'string' && given.startsWith('Bearer ') && sameSecret(given.slice(7), token)) return 'ok';
  }
  const relayed = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (!relayed && LOOPBACK.test(req.socket.remoteAddress ?? '')) return 'ok';
  if (dedicatedListener && token === null) return 'ok';
  return token === null ? 'forbidden' : 'unauthorized';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const METRICS_REFUSALS: Record<Exclude<MetricsAccess, 'ok'>, { status: number; message: string }> = {
  unauthorized: { status: 401, message: 'Metrics need Authorization: Bearer <METRICS_TOKEN> from this address.\n' },
  forbidden: { status: 403, message: 'Metrics are served to loopback clients only (set METRICS_TOKEN, or METRICS_PORT and METRICS_HOST).\n' },
};
