import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const compressible = /\.(js|css|html|svg|json)$/;

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every text asset of the build, so the API
 * serves them with @fastify/static `preCompressed` instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
        const file = join(outDir, entry);
        if (!compressible.test(file) || !statSync(file).isFile()) continue;
        const source = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: { '@': decodeURIComponent(new URL('./src', import.meta.url).pathname) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser we target supports <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    // No `data:` URLs: the server's Content-Security-Policy may not allow them for images.
    assetsInlineLimit: 0,
  },
  server: {
    // API calls are `/{tenant}/api/1.0/...`: everything else is the app.
    proxy: { '^/[^/]+/api/': { target: 'http://localhost:3000' } },
  },
});
