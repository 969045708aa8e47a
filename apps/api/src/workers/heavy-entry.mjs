// The heavy-work process starts here when the server runs from source (`npm run dev`, the tests):
// plain JavaScript, so that it loads the same way under node and vitest; tsx's scoped import
// compiles the TypeScript process. The compiled server forks `dist/heavy.js` instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./heavy-process.ts', import.meta.url);
