import { setTimeout as sleep } from 'node:timers/promises';
import { loadTenantId, type LoadShape } from '../apps/api/src/db/seed/generate.ts';
import { benchAppSecret, portalEnv } from './api.ts';
import { bundledServer, compiledApi } from './lib/build.ts';
import { ensurePostgresDataset } from './lib/dataset.ts';
import { freePort } from './lib/ports.ts';
import { startServer, type Server } from './lib/processes.ts';
import { serverNodeFlags } from '../apps/api/src/node-flags.ts';
import { median, round } from './lib/stats.ts';

type Figures = {
  readyMs: number[];
  idleRssMiB: number[];
  medianReadyMs: number;
  medianRssMiB: number;
};

export type ServiceResults = {
  runs: number;
  /** The compiled API as production runs it (`node apps/api/dist/server.js`) on PostgreSQL. */
  portal: Figures;
  /** A minimal Fastify + pg server, bundled the same way, ready when its first query answers. */
  floor: Figures;
  /** portal / floor: the budgets (issue 22: ≤ 2x each). */
  ratios: { ready: number; rss: number };
};

const idleSeconds = 3;
const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);
const figures = (): Figures => ({ readyMs: [], idleRssMiB: [], medianReadyMs: 0, medianRssMiB: 0 });

/**
 * Issue 22: from spawn to the first 200 of a call that reads the database, and the resident memory
 * after a few idle seconds, of the compiled portal against a bare Fastify + pg process started the
 * same way (node on a bundle, no TypeScript loader), on the same PostgreSQL database.
 */
export async function benchService(options: {
  adminUrl: string;
  database: string;
  shape: LoadShape;
  runs: number;
  log: (line: string) => void;
}): Promise<ServiceResults> {
  const { log } = options;
  const dataset = await ensurePostgresDataset(options.adminUrl, options.database, options.shape);
  const floorServer = await bundledServer('bench/servers/fastify-pg.ts');
  // The portal as production runs it: compiled now, from the tree being measured.
  const portalServer = compiledApi();
  const portal = figures();
  const floor = figures();
  const record = (f: Figures, server: Server) => {
    f.readyMs.push(round(server.readyMs, 0));
    f.idleRssMiB.push(mib(server.rss()));
    f.medianReadyMs = median(f.readyMs);
    f.medianRssMiB = median(f.idleRssMiB);
  };
  for (let r = 0; r < options.runs; r++) {
    const portalPort = await freePort();
    const server = await startServer({
      name: 'portal (compiled)',
      command: process.execPath,
      args: [...serverNodeFlags, portalServer],
      port: portalPort,
      env: { ...portalEnv(portalPort, benchAppSecret), DATABASE_URL: dataset.url },
      readyPath: `/${loadTenantId(0)}/api/1.0/visual-config`,
    });
    await sleep(idleSeconds * 1000);
    record(portal, server);
    await server.stop();

    const floorPort = await freePort();
    const bare = await startServer({
      name: 'fastify + pg (bundled)',
      command: process.execPath,
      args: [floorServer],
      port: floorPort,
      env: { PORT: String(floorPort), DATABASE_URL: dataset.url },
      readyPath: '/ready',
    });
    await sleep(idleSeconds * 1000);
    record(floor, bare);
    await bare.stop();
    log(
      `  start ${r + 1}/${options.runs}: portal ready after ${portal.readyMs.at(-1)} ms, idle RSS ${portal.idleRssMiB.at(-1)} MiB ` +
        `(fastify + pg ${floor.readyMs.at(-1)} ms, ${floor.idleRssMiB.at(-1)} MiB)`,
    );
  }
  return {
    runs: options.runs,
    portal,
    floor,
    ratios: {
      ready: round(portal.medianReadyMs / floor.medianReadyMs, 2),
      rss: round(portal.medianRssMiB / floor.medianRssMiB, 2),
    },
  };
}
