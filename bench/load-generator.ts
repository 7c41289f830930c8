/**
 * A small closed-loop HTTP/1.1 load generator for loopback targets: C keep-alive connections, each
 * sending the next request when the previous response has been read, for a fixed duration
 * (after a warm-up that is not counted) or until a request cap. With `ratePerSecond` (raw client)
 * the connections are paced instead, so that two servers can be compared at the same load.
 *
 * Two clients:
 * - `http`: node:http with a keep-alive Agent (maxSockets = connections), the ordinary client;
 * - `raw`:  one node:net socket per connection writing a fixed GET and parsing just the status
 *   line and Content-Length. It costs far less CPU per request than node:http, so a fast target
 *   is measured rather than the client.
 *
 * It runs in a worker thread (see runLoadInWorker) so that the target server in the main thread
 * and the client get a core each.
 */
import http from 'node:http';
import net from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export type LoadClient = 'http' | 'raw';

export type LoadOptions = {
  host: string;
  port: number;
  path: string;
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** Stop after this many counted requests (0: no cap). */
  maxRequests: number;
  client: LoadClient;
  /** Default GET. */
  method?: 'GET' | 'POST';
  /** Extra request headers, e.g. authorization, content-type. */
  headers?: Record<string, string>;
  /** A request body sent with every request (its Content-Length is added). */
  body?: string;
  /**
   * Paced load (`raw` client only): this many requests a second in all, each connection sending
   * at its own even interval, or at once when its previous response came late (no debt is kept).
   * The default: each connection sends as soon as its previous response is read (closed loop).
   */
  ratePerSecond?: number;
};

export type LoadResult = {
  requests: number;
  errors: number;
  non2xx: number;
  elapsedMs: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
};

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** How long past the planned end a run may go on before in-flight requests are abandoned. */
const HANG_GRACE_MS = 10_000;

/** Counts responses inside the measured window and decides when to stop. */
class Recorder {
  private readonly latencies: number[] = [];
  errors = 0;
  non2xx = 0;
  stopped = false;
  private readonly countFrom: number;
  private readonly stopAt: number;
  private countedStart = Infinity;
  private countedEnd: number;

  constructor(private readonly o: LoadOptions) {
    this.countFrom = performance.now() + o.warmupMs;
    this.stopAt = this.countFrom + o.durationMs;
    this.countedEnd = this.countFrom;
  }

  /** Records one response (sent at t0, complete at t1); returns whether to send another. */
  response(t0: number, t1: number, status: number): boolean {
    if (t0 >= this.countFrom) {
      if (t0 < this.countedStart) this.countedStart = t0;
      this.countedEnd = t1;
      this.latencies.push(t1 - t0);
      if (status < 200 || status >= 300) this.non2xx++;
      if (this.o.maxRequests > 0 && this.latencies.length >= this.o.maxRequests) this.stopped = true;
    }
    if (t1 >= this.stopAt) this.stopped = true;
    return !this.stopped;
  }

  /** Records a failed request; returns whether to go on. */
  error(): boolean {
    this.errors++;
    if (performance.now() >= this.stopAt || this.errors > 1000) this.stopped = true;
    return !this.stopped;
  }

  result(): LoadResult {
    const sorted = Float64Array.from(this.latencies).sort();
    const at = (p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
    const elapsedMs = Math.max(1, this.countedEnd - Math.min(this.countedStart, this.countedEnd));
    return {
      requests: sorted.length,
      errors: this.errors,
      non2xx: this.non2xx,
      elapsedMs,
      requestsPerSecond: (sorted.length / elapsedMs) * 1000,
      latencyMs: {
        p50: at(50),
        p90: at(90),
        p99: at(99),
        max: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
        mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
      },
    };
  }
}

/** node:http with a keep-alive Agent: each connection awaits its response, then sends the next. */
async function runHttp(o: LoadOptions, recorder: Recorder): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections, maxFreeSockets: o.connections });
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const headers = { ...o.headers, ...(o.body !== undefined ? { 'content-length': String(Buffer.byteLength(o.body)) } : {}) };
      const req = http.request({ host: o.host, port: o.port, path: o.path, method: o.method ?? 'GET', headers, agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(o.body);
    });
  const loop = async () => {
    for (;;) {
      const t0 = performance.now();
      try {
        const status = await one();
        if (!recorder.response(t0, performance.now(), status)) return;
      } catch {
        if (!recorder.error()) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  };
  // A target that stops answering must not hang the run: abort whatever is in flight.
  const deadline = setTimeout(() => {
    recorder.stopped = true;
    agent.destroy();
  }, o.warmupMs + o.durationMs + HANG_GRACE_MS);
  await Promise.all(Array.from({ length: o.connections }, loop));
  clearTimeout(deadline);
  agent.destroy();
}

const CRLF2 = Buffer.from('\r\n\r\n');
const LENGTH_HEADERS = [Buffer.from('\r\ncontent-length:'), Buffer.from('\r\nContent-Length:')];

/**
 * node:net sockets writing a fixed GET; the next request goes out from the data handler that
 * completes the previous response (no promise per request). Handles Content-Length and chunked bodies.
 */
function runRaw(o: LoadOptions, recorder: Recorder): Promise<void> {
  const extra = Object.entries({ ...o.headers, ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const request = Buffer.concat([
    Buffer.from(`${o.method ?? 'GET'} ${o.path} HTTP/1.1\r\nHost: ${o.host}:${o.port}\r\nConnection: keep-alive\r\n${extra}\r\n`, 'latin1'),
    Buffer.from(o.body ?? '', 'utf8'),
  ]);
  return new Promise((resolve) => {
    const sockets: net.Socket[] = [];
    // A target that stops answering must not hang the run: close every connection.
    const deadline = setTimeout(() => {
      recorder.stopped = true;
      for (const socket of sockets) socket.destroy();
    }, o.warmupMs + o.durationMs + HANG_GRACE_MS);
    let open = o.connections;
    const finished = () => {
      if (--open > 0) return;
      clearTimeout(deadline);
      resolve();
    };
    for (let c = 0; c < o.connections; c++) {
      const socket = net.connect({ host: o.host, port: o.port });
      sockets.push(socket);
      socket.setNoDelay(true);
      let buffer: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        socket.destroy();
        finished();
      };
      const send = () => {
        sentAt = performance.now();
        socket.write(request);
      };
      // Paced: this connection's share of the rate, its first send offset so that the connections
      // do not send together.
      const interval = o.ratePerSecond ? (o.connections / o.ratePerSecond) * 1000 : 0;
      let nextAt = performance.now() + (c * interval) / o.connections;
      const next = () => {
        if (done) return;
        const now = performance.now();
        if (interval === 0 || nextAt <= now) {
          nextAt = Math.max(nextAt, now) + interval;
          send();
        } else setTimeout(next, nextAt - now);
      };
      socket.once('connect', next);
      socket.on('error', () => {
        recorder.error();
        finish();
      });
      socket.on('close', finish);
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const headerEnd = buffer.indexOf(CRLF2);
          if (headerEnd < 0) return;
          let end = -1;
          for (const header of LENGTH_HEADERS) {
            const at = buffer.indexOf(header);
            if (at >= 0 && at < headerEnd) {
              end = headerEnd + 4 + parseInt(buffer.toString('latin1', at + header.length, buffer.indexOf(13, at + 2)).trim(), 10);
              break;
            }
          }
          if (end < 0) {
            // No Content-Length: expect a chunked body, ended by the zero-length chunk.
            const last = buffer.indexOf('\r\n0\r\n\r\n', headerEnd + 2);
            if (last < 0) return;
            end = last + 7;
          }
          if (buffer.length < end) return;
          const status = (buffer[9] - 48) * 100 + (buffer[10] - 48) * 10 + (buffer[11] - 48);
          buffer = buffer.length === end ? Buffer.alloc(0) : buffer.subarray(end);
          if (recorder.response(sentAt, performance.now(), status)) next();
          else return finish();
        }
      });
    }
  });
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  if (!LOOPBACK.has(o.host)) throw new Error(`the load generator only targets loopback, not ${o.host}`);
  if (o.ratePerSecond && o.client !== 'raw') throw new Error('a paced load (ratePerSecond) needs the raw client');
  const recorder = new Recorder(o);
  await (o.client === 'raw' ? runRaw(o, recorder) : runHttp(o, recorder));
  return recorder.result();
}

/** Runs the load in a worker thread (its own event loop and core) and resolves with its result. */
export function runLoadInWorker(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'load-generator.js'), { workerData: { loadOptions: options } });
    let result: LoadResult | undefined;
    worker.once('message', (message: LoadResult) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolve(result) : reject(new Error(`load generator exited with code ${code}`))));
  });
}

if (!isMainThread && (workerData as { loadOptions?: LoadOptions } | null)?.loadOptions) {
  runLoad((workerData as { loadOptions: LoadOptions }).loadOptions).then(
    (result) => parentPort!.postMessage(result),
    (error: unknown) => {
      throw error;
    },
  );
}
