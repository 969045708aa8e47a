// Preloaded (`node --import`) by tracing.test.ts: when the process exits, writes the file of every
// CommonJS module it loaded (imported from ESM or required: the tracing packages are CommonJS) to
// LOADED_MODULES_FILE, one a line.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';

const { cache } = createRequire(import.meta.url);

process.on('exit', () => {
  const file = process.env.LOADED_MODULES_FILE;
  if (file) writeFileSync(file, Object.keys(cache).join('\n'));
});
