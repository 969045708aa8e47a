/// <reference types="vite/client" />

// Declaration merging with Vite's own types needs `interface` here.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
interface ImportMetaEnv {
  readonly VITE_TESTING_MODE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
