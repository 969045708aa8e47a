import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { lazyNamespaces, loadNamespace } from '@/lib/i18n';

// findBy*/waitFor wait up to 5 s: lazy routes and i18n chunks load slowly on a busy 2-core machine
// (1 s, the default, made tests fail under load, never for a real defect).
configure({ asyncUtilTimeout: 5_000 });

// The router fetches a screen's translations with its code (app/router.tsx); tests that render a
// screen directly get them all up front.
beforeAll(() => loadNamespace(lazyNamespaces));

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.className = '';
});
