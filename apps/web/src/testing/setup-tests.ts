import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor wait up to 5 s: lazy routes and i18n chunks load slowly on a busy 2-core machine
// (1 s, the default, made tests fail under load, never for a real defect).
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.className = '';
});
