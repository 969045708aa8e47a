import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { serverNodeFlags } from '../../src/node-flags.ts';
import { freePort } from './ports.ts';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export type ApiProcess = {
  name: string;
  url: string;
  port: number;
  pid: number;
  /** Everything the process wrote (its JSON logs at LOG_LEVEL=info and its console). */
  logFile: string;
  /** Resolves when the process has exited, with its code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isRunning(): boolean;
  signal(signal: NodeJS.Signals): void;
  /** Resident memory now (VmRSS), in bytes; 0 once the process is gone. */
  rss(): number;
  /** The last part of the log, for failure messages. */
  logTail(chars?: number): string;
  /** SIGTERM, then SIGKILL after 20 seconds; resolves when the process is gone. */
  stop(): Promise<void>;
};

let started = 0;

const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
  ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
});

/**
 * Starts an entry point of the repository with Node: the compiled API as production runs it
 * (`node --single-threaded-gc apps/api/dist/server.js`, no TypeScript loader), a TypeScript one (the simulator) with
 * tsx's loader; its output appended to `logFile`; and waits until `readyPath` answers 200.
 */
async function startProcess(options: {
  name: string;
  entry: string;
  port: number;
  env: Record<string, string>;
  logFile: string;
  readyPath: string;
  readyTimeoutMs?: number;
}): Promise<ApiProcess> {
  const { name, port, logFile } = options;
  const out = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // The compiled API with the flags production gives it (node-flags.ts).
    const flags = options.entry.endsWith('.ts') ? ['--import', 'tsx'] : [...serverNodeFlags];
    child = spawn(process.execPath, [...flags, options.entry], {
      cwd: repoRoot,
      env: options.env,
      stdio: ['ignore', out, out],
    });
  } finally {
    closeSync(out);
  }
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    });
  });
  const pid = child.pid ?? 0;
  const logTail = (chars = 3000) => {
    try {
      return readFileSync(logFile, 'utf8').slice(-chars);
    } catch {
      return '';
    }
  };
  const proc: ApiProcess = {
    name,
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    logFile,
    exited,
    isRunning: () => running,
    signal(signal) {
      if (running) child.kill(signal);
    },
    rss() {
      try {
        const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return match ? Number(match[1]) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    logTail,
    async stop() {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (!running) throw new Error(`${name} exited before it was ready:\n${logTail()}`);
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`${name} was not ready in time:\n${logTail()}`);
    }
    try {
      const res = await fetch(proc.url + options.readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return proc;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
}

/**
 * Starts the real API, compiled (`apps/api/dist/server.js`: `npm run test:resilience` builds it
 * first), on a free port of 127.0.0.1 against
 * `databaseUrl` (already migrated and seeded), logging at info level to `api-<name>-<n>.log`
 * under `logDir`, without the embedded Redsys simulator and the reconciliation job. It runs in
 * production mode, with what production needs (NODE_ENV=production refuses to start otherwise):
 * PostgreSQL, a random APP_SECRET, the run's SMTP server, no demo seed; the seeded tenants are in
 * test mode on the simulator.
 */
export async function startApi(options: {
  name: string;
  logDir: string;
  databaseUrl: string;
  /** Keep the same secret across restarts of one database (tokens stay valid). */
  appSecret?: string;
  port?: number;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ApiProcess> {
  const port = options.port ?? (await freePort());
  const n = ++started;
  const dataDir = join(options.logDir, 'data', `${options.name}-${n}`);
  mkdirSync(dataDir, { recursive: true });
  return startProcess({
    name: `API ${options.name}`,
    entry: 'apps/api/dist/server.js',
    port,
    logFile: join(options.logDir, `api-${options.name}-${n}.log`),
    readyPath: '/1/api/1.0/visual-config',
    ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
    env: {
      ...baseEnv(),
      NODE_ENV: 'production',
      SMTP_URL: inject('resilience').smtpUrl,
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      APP_SECRET: options.appSecret ?? randomBytes(32).toString('base64'),
      DATA_DIR: dataDir,
      WEB_DIST: join(dataDir, 'no-web-build'),
      SEED_DEMO: 'false',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      REDSYS_SIMULATOR: 'false',
      RECONCILE_INTERVAL_SECONDS: '0',
      ...options.env,
    },
  });
}

/**
 * Starts the Redsys simulator as its own process (the payment gateway is not our application: its
 * log, `gateway-<n>.log`, is the gateway's, where the card number is typed).
 */
export async function startGateway(options: { logDir: string }): Promise<ApiProcess> {
  const port = await freePort();
  const n = ++started;
  return startProcess({
    name: 'Redsys simulator',
    entry: 'apps/redsys-sim/src/server.ts',
    port,
    logFile: join(options.logDir, `gateway-${n}.log`),
    readyPath: '/health',
    env: {
      ...baseEnv(),
      REDSYS_SIM_PORT: String(port),
      REDSYS_SIM_PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  });
}
