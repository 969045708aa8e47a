import { readFile as readFileFromDisk } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createSecretBox } from '../../../lib/secret-box.ts';
import { apiKeyCommands } from './api-keys.ts';
import {
  adminExit,
  AdminFailure,
  type AdminDeps,
  type AdminIo,
  type AdminRunner,
  type CommandSpec,
  type Values,
} from './common.ts';
import { oidcCommands } from './oidc.ts';
import { jobCommands } from './jobs.ts';
import { overpaymentCommands } from './overpayments.ts';
import { tenantReadCommands } from './tenant-read.ts';
import { fieldHelp, tenantWriteCommands } from './tenant-write.ts';

export { adminExit, type AdminDeps, type AdminIo, type AdminRunner } from './common.ts';

/**
 * The tenant administration CLI (`npm run admin -- ...`, entry point src/admin-cli.ts): creates and
 * updates tenants, their API keys and their OpenID providers. Every input is checked before the
 * database is touched, so a wrong command line writes nothing. Secrets are read from a file or
 * stdin, never from argv (shell history), and sealed (lib/secret-box.ts) before they are written.
 *
 * This file reads the command line; each subject's commands live in their own file (tenant-write,
 * tenant-read, api-keys, oidc, overpayments), on the shared kit of common.ts.
 */

/** Every command, in the order the help lists them. */
const commands: Record<string, CommandSpec> = {
  ...tenantWriteCommands,
  ...tenantReadCommands,
  ...apiKeyCommands,
  'oidc set': oidcCommands['oidc set'],
  ...overpaymentCommands,
  ...jobCommands,
  'oidc remove': oidcCommands['oidc remove'],
};

const generalUsage = `Tenant administration of the portal.

${Object.values(commands)
  .map((c) => `  npm run admin -- ${c.synopsis}`)
  .join('\n')}
  npm run admin -- help [command]

${fieldHelp}

Exit status: 0 done, 1 failed (nothing changed), 2 wrong command line (nothing written).
The database is DATABASE_URL, or without it the embedded one in DATA_DIR (stop the server first).
See docs/admin-cli.md.`;

const commandUsage = (name: string, spec: CommandSpec): string =>
  `Usage: npm run admin -- ${spec.synopsis}${name.startsWith('tenant create') || name.startsWith('tenant update') ? `\n\n${fieldHelp}` : ''}`;

const helpFlags = new Set(['--help', '-h']);

/** The plain option a secret must never be given as (it would stay in the shell history). */
const secretOnArgv = /^--(redsys-key|redsys-secret-key|client-secret)(=|$)/;

/**
 * Reads and checks the command line (and any file or stdin it names) without touching the
 * database: answers the exit code when there is nothing to run (help, a wrong command line),
 * otherwise the command ready to run.
 */
export async function prepareAdmin(
  argv: readonly string[],
  io: AdminIo,
): Promise<number | AdminRunner> {
  const fullIo: Required<AdminIo> = {
    out: io.out,
    err: io.err,
    readFile: io.readFile ?? readFileFromDisk,
    readStdin: io.readStdin ?? readProcessStdin,
  };
  const [group = '', action = ''] = argv;
  const name = `${group} ${action}`;
  const spec = commands[name];
  const wantsHelp = argv.some((a) => helpFlags.has(a));

  if (group === 'help' || (wantsHelp && !spec)) {
    const topic = group === 'help' ? argv.slice(1, 3).join(' ') : '';
    const about = commands[topic];
    io.out(about ? commandUsage(topic, about) : generalUsage);
    return adminExit.ok;
  }
  if (!spec) {
    io.err(group ? `error: unknown command "${argv.slice(0, 2).join(' ')}"` : 'error: no command');
    io.err('');
    io.err(generalUsage);
    return adminExit.usage;
  }
  if (wantsHelp) {
    io.out(commandUsage(name, spec));
    return adminExit.ok;
  }

  const args = argv.slice(2);
  const secretArg = args.find((a) => secretOnArgv.test(a));
  if (secretArg) {
    const base = secretArg.startsWith('--client') ? 'client-secret' : 'redsys-key';
    io.err(
      `error: ${secretArg.split('=')[0]} is not accepted: a secret on the command line stays in the ` +
        `shell history. Use --${base}-file <path> or --${base}-stdin.`,
    );
    return adminExit.usage;
  }

  let values: Values;
  try {
    values = parseArgs({ args: [...args], options: spec.options, strict: true }).values as Values;
  } catch (error) {
    // Node's messages name the option; their advice about positionals does not apply here.
    const message = error instanceof Error ? (error.message.split('. ')[0] ?? '') : String(error);
    io.err(`error: ${message.replace(/\.$/, '')}`);
    io.err('');
    io.err(commandUsage(name, spec));
    return adminExit.usage;
  }

  const missing = spec.required.filter((o) => values[o] === undefined);
  if (missing.length > 0) {
    for (const o of missing) io.err(`error: --${o} is required`);
    io.err('');
    io.err(commandUsage(name, spec));
    return adminExit.usage;
  }

  const prepared = await spec.prepare(values, fullIo);
  if (typeof prepared === 'function') return prepared;
  for (const p of prepared)
    io.err(p.option ? `error: --${p.option}: ${p.message}` : `error: ${p.message}`);
  io.err('Nothing was written.');
  return adminExit.usage;
}

/** `npm run admin -- <argv>` against `db`: answers the exit code. */
export async function runAdmin(argv: string[], deps: AdminDeps): Promise<number> {
  const prepared = await prepareAdmin(argv, deps);
  return typeof prepared === 'number' ? prepared : runPrepared(prepared, deps);
}

/** Runs a prepared command; a failure is reported on `err` and answered as its exit code. */
export async function runPrepared(run: AdminRunner, deps: AdminDeps): Promise<number> {
  try {
    return await run({
      db: deps.db,
      box: createSecretBox(deps.rootSecret),
      out: deps.out,
      err: deps.err,
      production: deps.production ?? false,
    });
  } catch (error) {
    deps.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof AdminFailure ? error.exitCode : adminExit.failed;
  }
}

async function readProcessStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    process.stderr.write('Paste the secret, then press Enter and Ctrl-D:\n');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}
