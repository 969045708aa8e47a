import { spawn } from 'node:child_process';

/**
 * Runs `node script ...args` with its output held back, then prints it whole once it ends (two
 * tools at once would otherwise interleave their lines); resolves whether it exited 0. The runner
 * of `npm run lint` (lint.ts) and `npm run typecheck` (typecheck.ts).
 */
export function runCollected(
  label: string,
  script: string,
  args: readonly string[],
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => {
      console.error(`${label}: ${error.message}`);
      resolve(false);
    });
    child.on('close', (code) => {
      process.stdout.write(output);
      if (code !== 0) console.error(`${label}: exit ${code}`);
      resolve(code === 0);
    });
  });
}
