// The esbuild plugin of the API's build (build.mjs) and of the bench's baselines
// (bench/lib/build.ts): npm packages stay imports resolved from node_modules; the workspace
// packages (@portal/*, consumed as TypeScript source) and relative imports are bundled.
export const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
    );
  },
};
