// `npm run typecheck`: `tsc --noEmit` on every TypeScript project of the repository, two at a time
// (the runners have two cores; one after another took twice as long), the largest first. Prints
// each project's errors as it finishes and exits 1 if any project has one.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = [
  'apps/api',
  'apps/web',
  '.',
  'apps/redsys-sim',
  'packages/redsys',
  'packages/contract',
];
const parallel = 2;

function check(project: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      process.stdout.write(output);
      if (code !== 0) console.error(`tsc -p ${project}: exit ${code}`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
let ok = true;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      ok = (await check(project)) && ok;
    }
  }),
);
process.exit(ok ? 0 : 1);
