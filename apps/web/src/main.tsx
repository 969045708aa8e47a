import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createAppRouter } from './app/router';
import { loadVisualConfig } from './lib/visual-config';
import { initTheme } from './lib/theme';
import { registerServiceWorker } from './pwa/register-service-worker';
import './lib/i18n';

// Before React renders anything: the theme class (no flash of the wrong theme) and, in parallel,
// the tenant's branding, the translations (started by the i18n import) and the first screen's chunk.
initTheme();
const visualConfig = loadVisualConfig();
const router = createAppRouter();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App router={router} visualConfig={visualConfig} />
  </StrictMode>,
);

// Installable and quick to reopen (src/pwa): production builds only, never the dev server or tests.
if (import.meta.env.PROD) registerServiceWorker();
