import { execFile } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

const run = promisify(execFile);

/** Where a private cluster lives, as the test files need it to restart the server. */
export type PrivatePostgresInfo = {
  /** Folder holding the data directory, the socket and the server's log. */
  root: string;
  dataDir: string;
  port: number;
  /** Folder of the PostgreSQL binaries (initdb, pg_ctl). */
  bin: string;
};

const prefix = 'portal-resilience-pg-';

/**
 * The machine's PostgreSQL server binaries: PG_BIN, else the newest /usr/lib/postgresql/<v>/bin.
 * The fault tests restart a server, so they need their own, never the shared one on 5432.
 */
export function findPostgresBin(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) {
    if (!existsSync(join(fromEnv, 'initdb'))) throw new Error(`PG_BIN=${fromEnv} has no initdb`);
    return fromEnv;
  }
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error(
      'The resilience suite needs the PostgreSQL server binaries (initdb, pg_ctl) to run a private ' +
        'cluster it can restart: none found in /usr/lib/postgresql/*/bin. Install the postgresql ' +
        'package (CI has it) or set PG_BIN to the folder holding initdb.',
    );
  }
  return join(base, versions[0], 'bin');
}

/** initdb refuses root: as root, PostgreSQL's tools run as the postgres user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
}

async function pgCtl(info: PrivatePostgresInfo, args: string[], timeoutMs = 60_000) {
  const [command, full] = asPostgres(join(info.bin, 'pg_ctl'), ['-D', info.dataDir, ...args]);
  return run(command, full, { timeout: timeoutMs });
}

/**
 * Creates and starts a private PostgreSQL cluster in a fresh temporary folder, on a free port of
 * 127.0.0.1, trusting local connections as `postgres`. Durability is off (fsync): it only lives
 * for one test run.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgresInfo> {
  stopAbandonedClusters();
  const bin = findPostgresBin();
  const root = mkdtempSync(join(tmpdir(), prefix));
  // Who owns this cluster: a later run stops it if this process died without cleaning up.
  writeFileSync(join(root, 'owner.pid'), String(process.pid));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const info: PrivatePostgresInfo = {
    root,
    dataDir: join(root, 'data'),
    port: await freePort(),
    bin,
  };
  const [initdb, initArgs] = asPostgres(join(bin, 'initdb'), [
    '-D',
    info.dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  await run(initdb, initArgs, { timeout: 120_000 });
  const options = [
    `-p ${info.port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c max_connections=200',
  ].join(' ');
  await pgCtl(info, ['-o', options, '-l', join(root, 'postgres.log'), '-w', 'start']);
  return info;
}

/** A fast restart: every connection is terminated, the server comes back on the same port. */
export async function restartPostgres(info: PrivatePostgresInfo): Promise<void> {
  await pgCtl(info, ['-m', 'fast', '-w', 'restart', '-l', join(info.root, 'postgres.log')]);
}

export async function stopPrivatePostgres(info: PrivatePostgresInfo): Promise<void> {
  try {
    await pgCtl(info, ['-m', 'immediate', '-w', 'stop'], 30_000);
  } catch {
    // Not running (a failed start): nothing to stop.
  }
  rmSync(info.root, { recursive: true, force: true });
}

export const postgresUrl = (info: Pick<PrivatePostgresInfo, 'port'>, database: string): string =>
  `postgres://postgres@127.0.0.1:${info.port}/${database}`;

/** Clusters of earlier runs whose owner process is gone (killed before its teardown). */
function stopAbandonedClusters(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(prefix)) continue;
    const root = join(tmpdir(), entry);
    try {
      const owner = Number(readFileSync(join(root, 'owner.pid'), 'utf8'));
      if (owner > 0) {
        process.kill(owner, 0);
        continue; // Its run is still going.
      }
    } catch (error) {
      // A folder another run is creating right now has no owner file for a moment.
      const young = Date.now() - statSync(root).mtimeMs < 60_000;
      if ((error as { code?: string }).code === 'ENOENT' && young) continue;
    }
    const dataDir = join(root, 'data');
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      try {
        const bin = findPostgresBin();
        const [command, args] = asPostgres(join(bin, 'pg_ctl'), [
          '-D',
          dataDir,
          '-m',
          'immediate',
          'stop',
        ]);
        void run(command, args, { timeout: 30_000 }).finally(() =>
          rmSync(root, { recursive: true, force: true }),
        );
        continue;
      } catch {
        // No binaries: leave it.
      }
    }
    rmSync(root, { recursive: true, force: true });
  }
}
