/**
 * Stands in for `use-sync-external-store/shim` (vite.config.ts): react-i18next imports that
 * polyfill for React before 18, but React 18+ and preact/compat have the hook itself, so the
 * polyfill's code is dead weight in the first chunk.
 */
export { useSyncExternalStore } from 'react';
