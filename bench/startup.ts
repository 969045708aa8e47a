import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './lib/ports.ts';
import { repoRoot, startServer, type Server } from './lib/processes.ts';
import { median, round } from './lib/stats.ts';
import { startDemoPortal } from './web.ts';

export type StartupResults = {
  firstStartMs?: number;
  readyMs: { runs: number[]; median: number };
  idleRssMiB: { runs: number[]; median: number };
  baseline: { readyMs: number; idleRssMiB: number };
  ratios: { ready: number; rss: number };
};

/** Seconds the server is left alone before its memory is read. */
const idleSeconds = 3;

const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);

/**
 * `npm start` without the build: the API (with the Redsys simulator, as the demo runs) on an
 * embedded database that is already migrated and seeded, from spawn to the first 200 of an API
 * call that reads the database, then its resident memory (the process tree: tsx and the server)
 * after a few idle seconds. Against a bare node:http server started the same way.
 */
export async function benchStartup(options: {
  runs: number;
  log: (line: string) => void;
}): Promise<StartupResults> {
  const { log } = options;
  const dataDir = join(repoRoot, 'bench/.data/web-demo');
  let firstStartMs: number | undefined;
  if (!existsSync(join(dataDir, 'pglite'))) {
    const first = await startDemoPortal({ dataDir, simulator: true, name: 'first start' });
    firstStartMs = round(first.readyMs, 0);
    await first.stop();
    log(`  first start (creates, migrates and seeds the database): ${firstStartMs} ms`);
  }
  const ready: number[] = [];
  const rss: number[] = [];
  const baselineReady: number[] = [];
  const baselineRss: number[] = [];
  for (let r = 0; r < options.runs; r++) {
    const server = await startDemoPortal({ dataDir, simulator: true, name: 'npm start' });
    await sleep(idleSeconds * 1000);
    ready.push(round(server.readyMs, 0));
    rss.push(mib(server.rss()));
    await server.stop();

    const port = await freePort();
    const bare: Server = await startServer({
      name: 'node:http',
      command: process.execPath,
      args: [
        '-e',
        "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), 'localhost')",
      ],
      port,
      host: 'localhost',
      env: { PORT: String(port) },
      readyPath: '/',
    });
    await sleep(idleSeconds * 1000);
    baselineReady.push(round(bare.readyMs, 0));
    baselineRss.push(mib(bare.rss()));
    await bare.stop();
    log(
      `  start ${r + 1}/${options.runs}: first 200 after ${ready.at(-1)} ms, idle RSS ${rss.at(-1)} MiB ` +
        `(bare node:http ${baselineReady.at(-1)} ms, ${baselineRss.at(-1)} MiB)`,
    );
  }
  const result: StartupResults = {
    ...(firstStartMs === undefined ? {} : { firstStartMs }),
    readyMs: { runs: ready, median: median(ready) },
    idleRssMiB: { runs: rss, median: median(rss) },
    baseline: { readyMs: median(baselineReady), idleRssMiB: median(baselineRss) },
    ratios: { ready: 0, rss: 0 },
  };
  result.ratios = {
    ready: round(result.readyMs.median / result.baseline.readyMs, 1),
    rss: round(result.idleRssMiB.median / result.baseline.idleRssMiB, 1),
  };
  return result;
}
