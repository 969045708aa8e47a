import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { loadRootSecret } from './lib/secrets.ts';
import { adminExit, prepareAdmin, runPrepared } from './modules/tenants/admin/cli.ts';

/**
 * `npm run admin -- ...`: tenant administration (docs/admin-cli.md). The command line is checked
 * first; the database (DATABASE_URL, or the embedded one in DATA_DIR) and the root secret are
 * opened the way the server opens them only when there is something to run.
 */
async function main(): Promise<number> {
  const io = {
    out: (line: string) => void process.stdout.write(`${line}\n`),
    err: (line: string) => void process.stderr.write(`${line}\n`),
  };
  const run = await prepareAdmin(process.argv.slice(2), io);
  if (typeof run === 'number') return run;

  const config = loadConfig();
  if (!config.DATABASE_URL) {
    // PGlite is one process's database: a second process writing the same folder corrupts it.
    // It keeps postmaster.pid there while open and removes it when closed.
    const pidFile = join(config.DATA_DIR, 'pglite', 'postmaster.pid');
    if (existsSync(pidFile)) {
      io.err(
        `error: the embedded database in ${config.DATA_DIR} is open in another process (the server?). ` +
          'Stop it and run this again. If nothing runs (the server was killed), delete ' +
          `${pidFile} first.`,
      );
      return adminExit.failed;
    }
  }
  const rootSecret = loadRootSecret({
    appSecret: config.APP_SECRET,
    dataDir: config.DATA_DIR,
    embedded: !config.DATABASE_URL,
  });
  const db = await openDatabase(config);
  try {
    await migrate(db);
    return await runPrepared(run, {
      db,
      rootSecret,
      production: config.NODE_ENV === 'production',
      ...io,
    });
  } finally {
    await db.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = adminExit.failed;
  },
);
