import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres } from '../../apps/api/src/db/database.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import {
  generateLoad,
  generatorVersion,
  type GenerateResult,
  type LoadShape,
} from '../../apps/api/src/db/seed/generate.ts';

/**
 * The benchmark's data sets, generated once and kept: the PostgreSQL database `portal_bench` and
 * an embedded (PGlite) data folder under bench/.data. Each carries a fingerprint of what made it
 * (generator version and shape); a different fingerprint means generating it again. A kept data
 * set is migrated like a production database when new migrations arrive.
 */
export function fingerprint(shape: LoadShape): string {
  return JSON.stringify({ generatorVersion, shape });
}

export type Dataset = { reused: boolean; generated?: GenerateResult; seconds: number };

const log = (message: string) => process.stderr.write(message);
const progress = ({ invoices, ofInvoices }: { invoices: number; ofInvoices: number }) =>
  log(`\r    ${invoices.toLocaleString('en')} / ${ofInvoices.toLocaleString('en')} invoices`);

/** Makes sure database `name` on the server at `adminUrl` holds the shape; answers its URL. */
export async function ensurePostgresDataset(
  adminUrl: string,
  name: string,
  shape: LoadShape,
): Promise<Dataset & { url: string }> {
  const started = performance.now();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const wanted = fingerprint(shape);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ note: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = $1",
      [name],
    );
    if (rows[0]?.note === wanted) {
      const db = openPostgres({ connectionString: url.toString(), max: 1 });
      await migrate(db).finally(() => db.close());
      return { url: url.toString(), reused: true, seconds: 0 };
    }
    log(`  generating ${name} on PostgreSQL (kept for the next runs)\n`);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const db = openPostgres({ connectionString: url.toString(), max: 3 });
  let generated: GenerateResult;
  try {
    generated = await generateLoad(db, { shape, onProgress: progress });
  } finally {
    await db.close();
    log('\n');
  }
  // Written last: an interrupted generation leaves no fingerprint and is redone next time.
  const done = new pg.Client({ connectionString: adminUrl });
  await done.connect();
  await done.query(`COMMENT ON DATABASE ${name} IS ${done.escapeLiteral(wanted)}`);
  await done.end();
  return {
    url: url.toString(),
    reused: false,
    generated,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Makes sure the embedded data folder `dataDir` (laid out as the server's DATA_DIR: the database
 * in `pglite/`) holds the shape.
 */
export async function ensurePgliteDataset(dataDir: string, shape: LoadShape): Promise<Dataset> {
  const started = performance.now();
  const wanted = fingerprint(shape);
  const marker = join(dataDir, 'fingerprint.json');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) {
    const db = await openPglite({ dataDir: join(dataDir, 'pglite') });
    await migrate(db).finally(() => db.close());
    return { reused: true, seconds: 0 };
  }
  log(`  generating the embedded data set in ${dataDir} (kept for the next runs)\n`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const db = await openPglite({ dataDir: join(dataDir, 'pglite') });
  let generated: GenerateResult;
  try {
    generated = await generateLoad(db, { shape, onProgress: progress });
  } finally {
    await db.close();
    log('\n');
  }
  writeFileSync(marker, wanted);
  return { reused: false, generated, seconds: (performance.now() - started) / 1000 };
}
