import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** True when `redis-server` is installed (CI installs it: .ci/run). */
export const hasRedisServer = (): boolean =>
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export type TestRedis = {
  url: string;
  /** Sends the server a signal (SIGSTOP: it keeps its connections and answers nothing). */
  signal: (signal: NodeJS.Signals) => void;
  stop: () => Promise<void>;
};

/**
 * A private, memory-only Redis for one test file, on a free port or on `port` (to start it again
 * where it was); `stop()` ends it.
 */
export async function startRedis({ port: fixed }: { port?: number } = {}): Promise<TestRedis> {
  const port = fixed ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start: ${output}`)),
      10_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
