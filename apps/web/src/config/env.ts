/**
 * What the browser build may read from the environment: an explicit allow-list. Vite inlines
 * `import.meta.env.VITE_*` at build time, so these are fixed per build.
 */
export const env = {
  /** Shows the side-menu switch that makes the local card-gateway simulator decline. */
  isTestingMode: import.meta.env.VITE_TESTING_MODE === 'true',
} as const;
