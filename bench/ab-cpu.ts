import { defaultLoadShape, loadTenantId } from '../apps/api/src/db/seed/generate.ts';
import { serverNodeFlags } from '../apps/api/src/node-flags.ts';
import { benchAppSecret, benchRanges, portalEnv, signIn, startPortal } from './api.ts';
import { compiledApi } from './lib/build.ts';
import { processCpuSeconds } from './lib/cpu-time.ts';
import { drive, type SessionRequest } from './lib/drive.ts';
import { freePort } from './lib/ports.ts';
import { startServer, type Server } from './lib/processes.ts';
import { median } from './lib/stats.ts';

/**
 * A diagnosis: the server CPU a request of `/invoices` costs the portal built from this tree
 * (apps/api/dist, built afresh) and another build or setting of it: `AB_OTHER`, a dist folder
 * inside apps/api so that it finds the same node_modules (a copy of an older build, say; default
 * the same dist), started with the extra node options `AB_OTHER_ARGS`. Both run at once on the
 * bench's PostgreSQL data set; windows of `AB_REQUESTS` requests (`AB_CONNECTIONS` at a time, 50 as
 * in the throughput runs) go to each in turn, `AB_WINDOWS` each, and the kernel's CPU time of each
 * server process over a window is divided by its requests. The same build on both sides gave
 * 0.997x (6 windows, 513-582 µs each): a difference of a few percent is below what it resolves
 * (bench/README.md "Comparing two builds").
 *
 *   npm run build -w @portal/api && cp -r apps/api/dist apps/api/dist-old    (before the change)
 *   AB_OTHER=apps/api/dist-old npx tsx bench/ab-cpu.ts                     (after it)
 */
const databaseUrl =
  process.env.BENCH_DATABASE_URL?.replace(/\/[^/]*$/, '/portal_bench') ??
  'postgres://postgres@127.0.0.1:5432/portal_bench';
const other = process.env.AB_OTHER ?? 'apps/api/dist';
const otherArgs = process.env.AB_OTHER_ARGS?.split(' ').filter(Boolean) ?? [];
const connections = Number(process.env.AB_CONNECTIONS ?? 50);
const requests = Number(process.env.AB_REQUESTS ?? 20_000);
const windows = Number(process.env.AB_WINDOWS ?? 4);
const shape = defaultLoadShape;
const ranges = benchRanges(shape);
const dbEnv = { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '10' };

const body = JSON.stringify({ ...ranges.invoices, page: 1 });
const portalInvoices: SessionRequest = (s) => ({
  path: `/${s.tenant}/api/1.0/invoices`,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
  body,
});

const start = async (name: string, server: string, extra: string[] = []): Promise<Server> => {
  const port = await freePort();
  return startServer({
    name,
    command: process.execPath,
    args: [...serverNodeFlags, ...extra, server],
    port,
    env: { ...portalEnv(port, benchAppSecret), ...dbEnv },
    readyPath: `/${loadTenantId(0)}/api/1.0/visual-config`,
    timeoutMs: 180_000,
  });
};

const signer = await startPortal('signer', {
  ...portalEnv(await freePort(), benchAppSecret),
  ...dbEnv,
});
const sessions = await signIn(signer, shape, 20);
await signer.stop();

const builds = [
  { name: 'this tree', server: await start('this tree', compiledApi()), perWindow: [] as number[] },
  {
    name: `${other} ${otherArgs.join(' ')}`,
    server: await start(other, `${other}/server.js`, otherArgs),
    perWindow: [] as number[],
  },
];
try {
  for (const b of builds)
    await drive(b.server.url, sessions, portalInvoices, {
      count: requests / 2,
      connections,
      seed: 1,
    }); // warm-up
  for (let w = 0; w < windows; w++) {
    for (const b of w % 2 ? [...builds].reverse() : builds) {
      const before = processCpuSeconds(b.server.pid);
      await drive(b.server.url, sessions, portalInvoices, {
        count: requests,
        connections,
        seed: w + 2,
      });
      b.perWindow.push(((processCpuSeconds(b.server.pid) - before) * 1e6) / requests);
    }
  }
  for (const b of builds) {
    console.log(
      `${b.name}: ${median(b.perWindow).toFixed(0)} µs of server CPU a request (windows: ${b.perWindow.map((v) => v.toFixed(0)).join(', ')})`,
    );
  }
  const [mine, theirs] = builds;
  if (mine && theirs) {
    const ratio = median(mine.perWindow) / median(theirs.perWindow);
    console.log(`this tree / ${theirs.name}: ${ratio.toFixed(3)}x`);
  }
} finally {
  for (const b of builds) await b.server.stop();
}
