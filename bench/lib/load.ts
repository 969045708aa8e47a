import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { percentile } from './stats.ts';

/** One request of a load run: chosen afresh for every request (a random customer, say). */
export type LoadRequest = {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

export type LoadResult = {
  /** Mean 2xx answers per second. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx answers, connection errors and timeouts: a single one makes the run invalid. */
  failures: number;
  /**
   * Fixed-rate runs only: p99 of how late the generator itself sent a request after it was due
   * (its own timers and GC, on the same 2 cores). Counted in the latencies above, as it must be
   * (no coordinated omission), and shown beside them so a late generator is not taken for a
   * slow server.
   */
  lateP99?: number;
};

/**
 * Drives one target with autocannon: `connections` keep-alive connections for `seconds`, each
 * request built by `next()`, as many requests as the server takes (closed loop: throughput).
 */
export async function runLoad(options: {
  url: string;
  next: () => LoadRequest;
  seconds: number;
  connections: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (request) => {
          const r = options.next();
          return {
            ...request,
            method: r.method,
            path: r.path,
            headers: {
              ...(r.body ? { 'content-type': 'application/json' } : {}),
              ...r.headers,
            },
            ...(r.body ? { body: r.body } : {}),
          };
        },
      },
    ],
  });
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * An open-loop load at a constant rate: request i is due at start + i/rate, sent then whatever
 * the earlier ones are doing (over at most `connections` keep-alive connections), and its latency
 * runs from when it was due, so time spent waiting for a free connection counts (no coordinated
 * omission). autocannon's own rate option sends each connection's quota for the second back to
 * back and then pauses, which measures a saturated server in bursts, not a steady rate.
 */
export async function runFixedRate(options: {
  url: string;
  next: () => LoadRequest;
  seconds: number;
  connections: number;
  rate: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  const lateness: number[] = [];
  let failures = 0;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  const send = (due: number) => {
    lateness.push(performance.now() - due);
    const r = options.next();
    const done = new Promise<void>((resolve) => {
      const req = httpRequest(
        `${options.url}${r.path}`,
        {
          method: r.method,
          agent,
          headers: {
            ...(r.body
              ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) }
              : {}),
            ...r.headers,
          },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) {
              latencies.push(performance.now() - due);
            } else {
              failures += 1;
            }
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        failures += 1;
        resolve();
      });
      req.end(r.body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        send(start + sent * interval);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const round1 = (v: number) => Math.round(v * 10) / 10;
  return {
    rps: latencies.length / elapsed,
    p50: round1(percentile(latencies, 50)),
    p99: round1(percentile(latencies, 99)),
    requests: total,
    failures,
    lateP99: round1(percentile(lateness, 99)),
  };
}
