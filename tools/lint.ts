// `npm run lint`: ESLint, Prettier's check and knip, two at a time (the runners have two cores and
// each tool uses about one: one after another took 41 s here, ESLint alone 21 s), ESLint beside
// the other two in turn. Prints each tool's output as it finishes and exits 1 if any fails.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A tool's command-line script as npm installed it (the paths its package.json `bin` names). */
const resolveBin = (pkg: string, bin: string) =>
  fileURLToPath(new URL(`../node_modules/${pkg}/${bin}`, import.meta.url));

type Tool = { name: string; script: string; args: string[] };
const eslint: Tool = {
  name: 'eslint',
  script: resolveBin('eslint', 'bin/eslint.js'),
  args: ['.', '--max-warnings=0'],
};
const prettier: Tool = {
  name: 'prettier',
  script: resolveBin('prettier', 'bin/prettier.cjs'),
  args: ['--check', '.'],
};
const knip: Tool = {
  name: 'knip',
  script: resolveBin('knip', 'bin/knip.js'),
  args: ['--no-progress'],
};

function run({ name, script, args }: Tool): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => {
      console.error(`${name}: ${error.message}`);
      resolve(false);
    });
    child.on('close', (code) => {
      process.stdout.write(output);
      if (code !== 0) console.error(`${name}: exit ${code}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all([
  run(eslint),
  (async () => [await run(prettier), await run(knip)])(),
]);
process.exit(results.flat().every(Boolean) ? 0 : 1);
