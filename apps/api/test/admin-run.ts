import { randomBytes } from 'node:crypto';
import type { Database } from '../src/db/database.ts';
import { runAdmin, type AdminDeps } from '../src/modules/tenants/admin/cli.ts';

/**
 * The operator's command line as `npm run admin -- ...` runs it, on `db`: its exit code and what it
 * printed (stdout, stderr). `io` gives it a file or stdin to read (a key file, a secret).
 */
export function adminCommand(
  db: Database,
  rootSecret: Buffer = randomBytes(32),
  io: Pick<AdminDeps, 'readFile' | 'readStdin' | 'production'> = {},
) {
  return async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      db,
      rootSecret,
      out: (line) => void out.push(line),
      err: (line) => void err.push(line),
      ...io,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}
