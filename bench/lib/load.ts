import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { percentile } from './stats.ts';

/** One request of a load run: chosen afresh for every request (a random customer, say). */
export type LoadRequest = {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

/**
 * One request of a fixed-rate run, for a trace (`--isolation-trace`): when it was due (ms since
 * the epoch), how late the generator sent it and how long its answer took from the due time (ms);
 * `latency` is null for a failed request.
 */
export type RequestSample = { due: number; late: number; latency: number | null };

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

/** The HTTP client of a fixed-rate run (see runFixedRate). */
export type FixedRateClient = 'undici' | 'node:http';

/**
 * An open-loop load at a constant rate: request i is due at start + i/rate, sent then whatever
 * the earlier ones are doing (over at most `connections` keep-alive connections), and its latency
 * runs from when it was due, so time spent waiting for a free connection counts (no coordinated
 * omission). autocannon's own rate option sends each connection's quota for the second back to
 * back and then pauses, which measures a saturated server in bursts, not a steady rate.
 *
 * The requests go through undici's Pool by default: on these 2 cores the generator shares the CPU
 * with the server and PostgreSQL, and node:http's client added its own tail to every target's p99
 * (docs/decisions/016). `client: 'node:http'` keeps the earlier client, to compare.
 */
export async function runFixedRate(options: {
  url: string;
  next: () => LoadRequest;
  seconds: number;
  connections: number;
  rate: number;
  client?: FixedRateClient;
  /** Each request's sample is pushed here, when given (a trace; nothing is kept otherwise). */
  samples?: RequestSample[];
}): Promise<LoadResult> {
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  const lateness: number[] = [];
  let failures = 0;
  let sent = 0;
  let pending = 0;
  let drained = () => {};
  const allAnswered = new Promise<void>((resolve) => (drained = resolve));
  /** Called once per request, answered or failed. */
  const lateOf = new Map<number, number>();
  const answered = (due: number, status: number) => {
    const ok = status >= 200 && status < 300;
    if (ok) latencies.push(performance.now() - due);
    else failures += 1;
    options.samples?.push({
      due: performance.timeOrigin + due,
      late: lateOf.get(due) ?? 0,
      latency: ok ? performance.now() - due : null,
    });
    pending -= 1;
    if (sent === total && pending === 0) drained();
  };
  const client =
    options.client === 'node:http'
      ? nodeHttpSender(options.url, options.connections, answered)
      : undiciSender(options.url, options.connections, answered);
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        const due = start + sent * interval;
        lateness.push(performance.now() - due);
        if (options.samples) lateOf.set(due, performance.now() - due);
        pending += 1;
        sent += 1;
        client.send(options.next(), due);
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  if (pending > 0) await allAnswered;
  const elapsed = (performance.now() - start) / 1000;
  await client.close();
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

type Sender = { send(r: LoadRequest, due: number): void; close(): Promise<void> };
type Answered = (due: number, status: number) => void;

const headersOf = (r: LoadRequest) => ({
  ...(r.body ? { 'content-type': 'application/json' } : {}),
  ...r.headers,
});

/** undici's Pool, through `dispatch`: no response stream is built, the body is only counted. */
function undiciSender(url: string, connections: number, answered: Answered): Sender {
  const pool = new Pool(url, { connections, pipelining: 1 });
  return {
    send(r, due) {
      let status = 0;
      pool.dispatch(
        {
          path: r.path,
          method: r.method,
          headers: headersOf(r),
          body: r.body ?? null,
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        },
        {
          // Its presence selects undici's handler interface of version 7 (onResponse…).
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseEnd() {
            answered(due, status);
          },
          onResponseError() {
            answered(due, 0);
          },
        },
      );
    },
    close: () => pool.close(),
  };
}

/** node:http's client with a keep-alive Agent: the fixed-rate runs' client until session 10. */
function nodeHttpSender(url: string, connections: number, answered: Answered): Sender {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return {
    send(r, due) {
      let done = false;
      const once = (status: number) => {
        if (!done) answered(due, status);
        done = true;
      };
      const req = httpRequest(
        `${url}${r.path}`,
        {
          method: r.method,
          agent,
          headers: {
            ...headersOf(r),
            ...(r.body ? { 'content-length': Buffer.byteLength(r.body) } : {}),
          },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => once(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => once(0));
      req.end(r.body);
    },
    close: async () => agent.destroy(),
  };
}
