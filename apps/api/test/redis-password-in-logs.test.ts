import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';
import { hasRedisServer } from './redis-server.ts';

/*
 * Scenario: production runs with REDIS_URL=redis://:<password>@host (SECURITY.md, revocations and
 * limits in Redis). The Redis password is rotated on the server before the portal's REDIS_URL is
 * (or the URL is mistyped): every connection attempt is refused with WRONGPASS.
 * Today: ioredis attaches the refused command to its error (`err.command = {name: "hello", args:
 * ["3", "AUTH", "default", password]}`), `context.ts` logs the error as `{ err }` ('Redis connection error'), and pino's
 * err serializer copies every enumerable field: the Redis password is written to the log, again
 * at every reconnection.
 * Should: the log says the connection failed (WRONGPASS) without the password (log the message
 * and code only, or drop `command.args` from Redis errors before logging).
 */

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe.skipIf(!hasRedisServer()).each(engines())('the Redis password on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let redis: ChildProcess;
  const lines: string[] = [];
  // The password the portal was given (REDIS_URL) and the one the server now wants.
  const configured = `old-${randomBytes(18).toString('base64url')}`;

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--requirepass',
        `new-${randomBytes(18).toString('base64url')}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server: ${output}`)), 10_000);
      redis.stdout?.on('data', (c: Buffer) => {
        output += c.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    db = await engine.open();
    app = await buildTestApp(
      db,
      { LOG_LEVEL: 'info', REDIS_URL: `redis://:${configured}@127.0.0.1:${port}` },
      randomBytes(32),
      { write: (line) => void lines.push(line) },
    );
    // Starting fails (the first connection is refused); what matters here is what was logged.
    try {
      await app.ready();
    } catch {
      // refused: WRONGPASS
    }
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    redis?.kill('SIGTERM');
  });

  it('logs that Redis refused the password, never the password itself', async () => {
    for (let i = 0; i < 60 && !lines.some((l) => l.includes('Redis connection error')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const logged = lines.join('');
    expect(logged).toContain('Redis connection error');
    expect(logged).toContain('WRONGPASS');
    expect(logged).not.toContain(configured);
  });
});
