import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { send } from './http.ts';
import { freePort } from './ports.ts';

const haproxyBin = '/usr/sbin/haproxy';
export const hasHaproxy = spawnSync(haproxyBin, ['-v'], { stdio: 'ignore' }).status === 0;

type Haproxy = { url: string; stop(): void };

/** Debian's HAProxy in front of the instances, checking each one's /readyz as production would. */
export function startHaproxy(backends: number[]): Promise<Haproxy> {
  return runHaproxy(
    (port) =>
      [
        'global',
        '  maxconn 2000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 30s',
        '  timeout server 30s',
        // A connection refused (the instance is gone) is retried on the other one: the request
        // never reached an instance. An answer that breaks off midway is not retried.
        '  retries 2',
        '  option redispatch',
        '  retry-on conn-failure',
        'frontend portal',
        `  bind 127.0.0.1:${port}`,
        // The client's address, set by the proxy (never one a client sent): TRUST_PROXY=true.
        '  http-request set-header X-Forwarded-For %[src]',
        '  default_backend instances',
        'backend instances',
        '  balance roundrobin',
        '  option httpchk GET /readyz',
        // A check waits up to 2 s for its answer (the machine is loaded); two failures in a row take
        // an instance out, one success brings it back.
        '  timeout check 2s',
        '  default-server inter 300ms fall 2 rise 1',
        ...backends.map((p, i) => `  server api${i} 127.0.0.1:${p} check`),
      ].join('\n') + '\n',
  );
}

/**
 * The repository's own `deploy/haproxy.cfg` (compose's load balancer), with its listening address
 * and its instances' names (`portal-a:3000`…, compose's network) replaced by this machine's
 * ports: each must be found, so a change to the file shows here.
 */
export function startDeployHaproxy(backends: Record<string, number>): Promise<Haproxy> {
  const file = readFileSync(new URL('../../../../deploy/haproxy.cfg', import.meta.url), 'utf8');
  return runHaproxy((port) => {
    const replace = (text: string, from: string, to: string) => {
      if (!text.includes(from)) throw new Error(`deploy/haproxy.cfg has no "${from}"`);
      return text.replace(from, to);
    };
    let config = replace(file, 'bind :8080', `bind 127.0.0.1:${port}`);
    for (const [name, p] of Object.entries(backends))
      config = replace(config, ` ${name}:3000 `, ` 127.0.0.1:${p} `);
    return config;
  });
}

async function runHaproxy(configFor: (port: number) => string): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  const port = await freePort();
  writeFileSync(join(dir, 'haproxy.cfg'), configFor(port));
  const child: ChildProcess = spawn(haproxyBin, ['-db', '-f', join(dir, 'haproxy.cfg')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const res = await send(`${url}/livez`, { timeoutMs: 1000 });
    if (res.status === 200) break;
    if (i > 100) throw new Error(`haproxy did not start: ${output}`);
    await sleep(100);
  }
  return {
    url,
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
