import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrate, pendingMigrations } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { loadRootSecret } from './lib/secrets.ts';
import { sealPlaintextSecrets } from './db/seal-secrets.ts';
import { missingServerFlags } from './node-flags.ts';
import { configProblems, refusalText, tenantProblems } from './production-checks.ts';

/**
 * Starts the portal: one process serving the API and the built web app. With NODE_ENV=production
 * it first refuses an unsafe set-up (production-checks.ts): every problem on its own line on
 * stderr, then exit status 1, before anything listens or is seeded.
 */
async function main() {
  const config = loadConfig();
  const production = config.NODE_ENV === 'production';
  const problems = production ? configProblems(config) : [];
  // No embedded database in production: it is not even opened.
  if (production && !config.DATABASE_URL) return refuse(problems);
  let rootSecret: Buffer | null = null;
  try {
    rootSecret = loadRootSecret({
      appSecret: config.APP_SECRET,
      dataDir: config.DATA_DIR,
      embedded: !config.DATABASE_URL,
    });
  } catch (error) {
    // In production the APP_SECRET line already says why; the tenants are still checked.
    if (!production) throw error;
  }
  const db = await openDatabase(config);
  // The demo and development migrate at start (under a lock). Production migrates as its own step
  // before new instances start (`npm run db:migrate`, docs/operations.md), and refuses to start on a
  // database behind its code.
  if (!production) await migrate(db);
  else {
    const pending = await pendingMigrations(db);
    if (pending.length > 0) {
      problems.push(
        `The database lacks ${pending.length} migration(s) of this release (${pending.join(', ')}): run \`npm run db:migrate\` first.`,
      );
      await db.close();
      return refuse(problems);
    }
  }
  if (production) {
    problems.push(...(await tenantProblems(db, rootSecret && createSecretBox(rootSecret))));
    if (problems.length > 0 || !rootSecret) {
      await db.close();
      return refuse(problems);
    }
  }
  if (!rootSecret) throw new Error('unreachable: the root secret is loaded or the start refused');
  // The demo's parts (its seed, the Redsys simulator) load only where they run: never in production.
  const demo = config.seedDemo ? await import('./db/seed/demo.ts') : null;
  let seeded = false;
  if (config.seedDemo) {
    const { seedIfEmpty } = await import('./db/seed/seed-if-empty.ts');
    seeded = await seedIfEmpty(db, config.publicUrl, config.DEMO_SIGN_IN_PROVIDERS);
  }
  // Secrets the seed (or a hand-written row) left in clear are sealed before anything reads them.
  await sealPlaintextSecrets(db, createSecretBox(rootSecret));
  const lifecycle = { draining: false };
  const app = await buildApp({ config, db, rootSecret, lifecycle });
  // The local Redsys simulator (public test merchant) runs beside the portal in the demo.
  const simulator = config.runSimulator
    ? (await import('@portal/redsys-sim')).buildSimulator({
        publicUrl: config.redsysSimulatorUrl,
        demoReferencePrefix: 'demo',
        inspect: process.env.REDSYS_SIM_INSPECT === 'true',
        logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
      })
    : null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    // Not ready from now on; the load balancer is given SHUTDOWN_DRAIN_SECONDS to notice. Then
    // stop accepting, let in-flight requests and jobs finish, close the pools. Bounded: exit 1.
    lifecycle.draining = true;
    let step = 'waiting for the load balancer';
    const boundMs = 15_000 + config.SHUTDOWN_DRAIN_SECONDS * 1000;
    const timer = setTimeout(() => {
      // Said on stderr whatever the log level: the supervisor sees why the exit status is 1.
      console.error(`shutdown did not finish within ${boundMs} ms (${step}): exiting 1`);
      process.exit(1);
    }, boundMs);
    timer.unref();
    if (config.SHUTDOWN_DRAIN_SECONDS > 0)
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_SECONDS * 1000));
    // close() ends the connections idle at that moment; a keep-alive connection whose request was
    // in flight becomes idle only when its answer is sent, and would otherwise hold the process
    // until the client's keep-alive ends (resilience/faults.resilience.ts).
    const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    reaper.unref();
    let failed = false;
    // Each step runs even when the one before failed: the pools are closed whatever happened.
    const run = async (name: string, close: () => Promise<unknown> | undefined) => {
      step = name;
      try {
        await close();
      } catch (error) {
        failed = true;
        console.error(
          `shutdown: ${name} failed: ${error instanceof Error ? error.message : error}`,
        );
      }
    };
    await run('draining requests and jobs', () => app.close());
    clearInterval(reaper);
    await run('closing the simulator', () => simulator?.close());
    await run('closing the database', () => db.close());
    process.exit(failed ? 1 : 0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  const missing = missingServerFlags();
  if (missing.length > 0)
    app.log.warn(
      { missing },
      'started without the Node.js flags the server runs with (node-flags.ts, `npm run serve`): its garbage collection may take every core from the other tenants beside heavy work',
    );
  if (simulator) await simulator.listen({ host: config.HOST, port: config.simulatorPort });
  const port = (app.server.address() as { port: number } | null)?.port ?? config.PORT;
  const lines = [
    '',
    `  Oficina online is running on ${db.kind === 'pglite' ? 'the embedded database' : 'PostgreSQL'}, port ${port}.`,
  ];
  // The demo's tenants exist where the demo seed runs; elsewhere the operator's tenants are theirs.
  if (config.seedDemo)
    lines.push(
      `    Tenant 1:    http://localhost:${port}`,
      `    Tenant demo: http://demo.localhost:${port}`,
    );
  if (simulator)
    lines.push(`  Card payments go to the local Redsys simulator at ${config.redsysSimulatorUrl}`);
  if (demo) {
    lines.push(
      `  Demo customer: ${demo.demoEmail} / ${demo.demoPassword}${seeded ? ' (demo data created)' : ''}`,
    );
  }
  lines.push('');
  console.log(lines.join('\n'));
}

/** Says every problem, and ends with exit status 1 once the output is written. */
function refuse(problems: readonly string[]): void {
  console.error(refusalText(problems));
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
