import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import {
  runFixedRate,
  type FixedRateClient,
  type LoadRequest,
  type LoadResult,
  type RequestSample,
} from './load.ts';
import { startLineProcess } from './processes.ts';

/** One fixed-rate run, as the generator process takes it: the requests chosen beforehand. */
export type FixedRateJob = {
  url: string;
  /** The requests, sent in this order (the run sends `rate * seconds` of them, cycling). */
  requests: LoadRequest[];
  seconds: number;
  connections: number;
  rate: number;
  /** Answer every request's sample too (a trace). */
  samples: boolean;
  /** The HTTP client (undici unless said; node:http only to compare, docs/decisions/016). */
  client?: FixedRateClient;
};

export type GeneratorProcess = {
  pid: number;
  run(job: FixedRateJob): Promise<LoadResult & { samples?: RequestSample[] }>;
  stop(): Promise<void>;
};

/**
 * The fixed-rate generator (`runFixedRate`) in a process of its own, which holds nothing but the
 * run's requests, with V8's garbage collection on its own thread (`--single-threaded-gc`).
 *
 * Why (bench/README.md, "Isolation"): run inside the bench process, whose heap holds the sessions,
 * the earlier rounds' samples and the heavy client's bookkeeping, the generator's collections ran
 * on V8's four helper threads at once. On 2 cores those bursts took both cores for 10-35 ms each:
 * the isolation trace showed them in most clusters of slow requests, alone as well as beside the
 * heavy work, and they were counted as the portal's latency. A lean process whose collector works
 * on its one thread spends the same time but never more than one core.
 */
export async function startGeneratorProcess(): Promise<GeneratorProcess> {
  const { child, next: answer } = startLineProcess(
    'the generator process',
    new URL(import.meta.url).pathname,
  );
  const ready = await answer();
  if (ready !== 'ready') throw new Error(`the generator process said: ${ready}`);
  return {
    pid: child.pid as number,
    async run(job) {
      const result = answer();
      child.stdin.write(`${JSON.stringify(job)}\n`);
      const parsed = JSON.parse(await result) as
        { ok: LoadResult & { samples?: RequestSample[] } } | { error: string };
      if ('error' in parsed) throw new Error(`the generator process: ${parsed.error}`);
      return parsed.ok;
    },
    async stop() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      await exited;
    },
  };
}

/** One job: its requests in order, cycling. */
export async function runJob(
  job: FixedRateJob,
): Promise<LoadResult & { samples?: RequestSample[] }> {
  if (job.requests.length === 0) throw new Error('a fixed-rate job needs requests');
  let i = 0;
  const samples: RequestSample[] = [];
  const result = await runFixedRate({
    url: job.url,
    next: () => job.requests[i++ % job.requests.length] as LoadRequest,
    seconds: job.seconds,
    connections: job.connections,
    rate: job.rate,
    ...(job.client ? { client: job.client } : {}),
    ...(job.samples ? { samples } : {}),
  });
  return job.samples ? { ...result, samples } : result;
}

// Run as the child: one job per line on stdin, one answer per line on stdout, until stdin ends.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const jobs = createInterface({ input: process.stdin });
  process.stdout.write('ready\n');
  for await (const line of jobs) {
    try {
      const ok = await runJob(JSON.parse(line) as FixedRateJob);
      process.stdout.write(`${JSON.stringify({ ok })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    }
  }
}
