import type { Plugin } from 'esbuild';

/** See esbuild-externals.mjs. */
export declare const npmPackagesExternal: Plugin;
