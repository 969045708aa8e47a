import type { TestProject } from 'vitest/node';
import { migrate } from '../src/db/migrate.ts';
import { openPglite, openPostgres } from '../src/db/database.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { adminUrl, databaseUrl, isPostgresReachable } from './pg-server.ts';
import pg from 'pg';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** A migrated, seeded PGlite data folder as a base64 tarball: each test file loads a copy. */
    pgliteDump: string;
    /** A migrated, seeded PostgreSQL template database, or '' when no server is reachable. */
    pgTemplate: string;
  }
}

const publicUrl = 'http://localhost:3000';

/**
 * Builds the seeded database once per run, on both engines; test files then start from a copy in
 * well under a second instead of migrating and seeding for themselves.
 */
export default async function setup(project: TestProject) {
  const lite = await openPglite();
  await migrate(lite);
  await lite.withOwner((sql) => seedDemo(sql, { publicUrl }));
  const dump = await lite.pglite.dumpDataDir('none');
  await lite.close();
  project.provide('pgliteDump', Buffer.from(await dump.arrayBuffer()).toString('base64'));

  let template = '';
  if (await isPostgresReachable()) {
    template = `portal_tpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const db = openPostgres({ connectionString: databaseUrl(template), max: 2 });
    await migrate(db);
    await db.withOwner((sql) => seedDemo(sql, { publicUrl }));
    await db.close();
  } else if (process.env.CI) {
    throw new Error('CI must test against PostgreSQL, but none is reachable at ' + adminUrl());
  }
  project.provide('pgTemplate', template);

  return async () => {
    if (!template) return;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname DESC',
      [template],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}
