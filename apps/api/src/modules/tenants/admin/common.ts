import type { Database, SqlQuery } from '../../../db/database.ts';
import type { SecretBox } from '../../../lib/secret-box.ts';
import { createTenantRepository } from '../repository.ts';
import { trimSecret, type InputProblem } from './input.ts';

/**
 * What every command of the tenant administration CLI shares (cli.ts reads the command line and
 * runs them): its input and output, exit codes, the shape of a command, and small helpers.
 */

export type AdminIo = {
  /** One line of the command's result (stdout): what a script reads. */
  out: (line: string) => void;
  /** One line of errors, warnings and hints (stderr). */
  err: (line: string) => void;
  readFile?: (path: string) => Promise<Uint8Array>;
  readStdin?: () => Promise<string>;
};

export type AdminDeps = AdminIo & {
  db: Database;
  rootSecret: Buffer;
  /**
   * NODE_ENV=production: a tenant change that a production server would refuse to start with
   * (production-checks.ts) is refused, and nothing is written. Elsewhere it is only a note.
   */
  production?: boolean;
};

/** 0 done; 1 the operation failed (unknown tenant, duplicate id, database); 2 wrong command line. */
export const adminExit = { ok: 0, failed: 1, usage: 2 } as const;

/** A command checked and ready to run against the database. */
export type AdminRunner = (context: {
  db: Database;
  box: SecretBox;
  out: AdminIo['out'];
  err: AdminIo['err'];
  production: boolean;
}) => Promise<number>;

/** An expected failure: its message is shown as is, with its exit code. */
export class AdminFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number = adminExit.failed,
  ) {
    super(message);
  }
}

export type Values = Record<string, string | boolean | undefined>;
export type OptionTypes = Record<string, { type: 'string' | 'boolean' }>;
export type Prepared = AdminRunner | InputProblem[];

export type CommandSpec = {
  synopsis: string;
  options: OptionTypes;
  required: readonly string[];
  prepare: (values: Values, io: Required<AdminIo>) => Promise<Prepared>;
};

export const string = { type: 'string' } as const;
export const boolean = { type: 'boolean' } as const;

export function problemsOf(
  ...results: ({ ok: true } | { ok: false; problem: InputProblem })[]
): InputProblem[] {
  return results.flatMap((r) => (r.ok ? [] : [r.problem]));
}

/** `--<base>-file <path>` or `--<base>-stdin`: the secret, or what is wrong with it. */
export async function readSecretOption(
  base: 'redsys-key' | 'client-secret',
  values: Values,
  io: Required<AdminIo>,
): Promise<{ secret?: string; problem?: InputProblem }> {
  const file = values[`${base}-file`];
  const fromStdin = values[`${base}-stdin`] === true;
  if (typeof file === 'string' && fromStdin) {
    return {
      problem: {
        option: `${base}-file`,
        message: `give --${base}-file or --${base}-stdin, not both`,
      },
    };
  }
  let option: string;
  let raw: string;
  if (typeof file === 'string') {
    option = `${base}-file`;
    try {
      raw = Buffer.from(await io.readFile(file)).toString('utf8');
    } catch (error) {
      return { problem: { option, message: `cannot read ${file} (${errorCode(error)})` } };
    }
  } else if (fromStdin) {
    option = `${base}-stdin`;
    raw = await io.readStdin();
  } else {
    return {};
  }
  const secret = trimSecret(raw);
  if (!secret) return { problem: { option, message: 'the secret is empty' } };
  if (/\s/.test(secret)) {
    return {
      problem: { option, message: 'the secret contains spaces or line breaks: give it alone' },
    };
  }
  return { secret };
}

export const errorCode = (error: unknown): string =>
  (error as { code?: unknown }).code ? String((error as { code: unknown }).code) : String(error);

export const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** Rows as aligned columns under a header. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** Fails unless the tenant of the transaction exists. */
export async function requireTenant(sql: SqlQuery, tenantId: string): Promise<void> {
  if (!(await createTenantRepository().exists(sql)))
    throw new AdminFailure(`--tenant: no tenant ${tenantId} (see tenant list)`);
}
