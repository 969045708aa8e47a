/**
 * /login comes prerendered from the server (entry-server.tsx, issue 6): the form paints before
 * any script has run. What happens between that first paint and the app taking over lives here:
 *
 * - `bootScript`, inline in the page's `<head>` (its hash is in the Content-Security-Policy), runs
 *   before the body paints. It applies the theme as lib/theme.ts would, hides the prerendered
 *   markup when the visitor's language is not the page's (lib/language-detector.ts), and holds
 *   back a form sent before the app is there, so that the password never goes out in a URL, and
 *   notes an image (the logo) that fails to load meanwhile. It loads the app's scripts only once
 *   the page has painted (the server takes them out of the page's `<head>`).
 * - The app reads what was typed into the prerendered fields (`captureTyped`), hydrates the same
 *   markup, then sends a held form and presses a held button (`takeHeld`): nothing typed or
 *   clicked is lost.
 */

/** `<div id="root" data-prerendered="es">`: the markup inside came from the server, in `es`. */
export const prerenderedAttribute = 'data-prerendered';

/**
 * The element around the sign-in screen (`display: contents`), which the /login entry hydrates
 * (src/login/main.tsx): its own React root, whose `useId`s start with `loginIdPrefix` on the
 * server and in the browser alike.
 */
export const loginRootId = 'login-root';
export const loginIdPrefix = 'login-';

/** On `<html>` while the prerendered markup is in another language than the visitor's. */
export const staleClass = 'prerender-stale';

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- extends the global Window
  interface Window {
    /** The boot script's submit listener, removed when the app takes over. */
    __portalHoldSubmit?: (event: Event) => void;
    /** The form sent before the app was there. */
    __portalHeldForm?: HTMLFormElement;
    /** The boot script's click listener, and the last button clicked before the app was there. */
    __portalHoldClick?: (event: Event) => void;
    __portalHeldButton?: HTMLButtonElement;
    /** The boot script's listener for images that fail to load before the app is there. */
    __portalNoteFailure?: (event: Event) => void;
    /** Those images. */
    __portalFailedImages?: Element[];
    /** Loads the app's scripts (the boot script's; the /login entry calls it). */
    __portalLoadApp?: () => void;
    /** Set by the /login entry once it runs the form: the app asks it to step aside. */
    __portalLogin?: { release: () => void };
  }
}

type BootOptions = {
  /** lib/storage.ts keys. */
  theme: string;
  language: string;
  /** lib/i18n.ts `languages`. */
  languages: string[];
  /**
   * The /login entry's module and the modules it imports, loaded once the page has painted
   * (src/login/main.tsx); without one, the app's.
   */
  entry: string;
  preloads: string[];
  /** The app's, which the /login entry loads when the visitor goes further than the form. */
  app?: { entry: string; preloads: string[] };
};

/**
 * Runs in the page as an inline script, so it must stand alone: no imports, no closures, only
 * what a browser of the target list has. `language` is the one the markup was rendered in.
 */
function boot(language: string, options: BootOptions): void {
  const html = document.documentElement;
  const read = (key: string): string | null => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  // lib/theme.ts: the stored choice, else the system's dark preference (followed while the page
  // is open), else light.
  const system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const paint = () => {
    const stored = read(options.theme);
    const theme =
      stored === 'light' || stored === 'dark'
        ? stored
        : system && system.matches
          ? 'dark'
          : 'light';
    html.classList.toggle('dark', theme === 'dark');
    html.style.colorScheme = theme;
    const metas = document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]');
    for (let i = 0; i < metas.length; i++) {
      const meta = metas[i];
      if (meta) meta.content = theme === 'dark' ? '#101828' : '#ffffff';
    }
  };
  paint();
  if (system && system.addEventListener) system.addEventListener('change', paint);
  // lib/language-detector.ts and i18next: the first of the stored choice and the browser's
  // languages that is one of ours, else Spanish.
  const codes = [read(options.language), ...(navigator.languages || []), navigator.language];
  let visitor = 'es';
  for (const code of codes) {
    const base = code ? String(code).toLowerCase().split('-')[0] : '';
    if (base && options.languages.indexOf(base) !== -1) {
      visitor = base;
      break;
    }
  }
  if (visitor !== language) html.classList.add('prerender-stale');
  // A form sent before the app is there waits for it (takeHeld). Until the app has taken over the
  // whole page, no part of it sees the event either: the app takes the page over in parts
  // (hydrationTurn), and a part that reacted early would change what a later part is hydrated
  // with, while hydration keeps the markup as it came (the menu would stay shut, open).
  window.__portalHoldSubmit = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    if (event.target instanceof HTMLFormElement) window.__portalHeldForm = event.target;
  };
  document.addEventListener('submit', window.__portalHoldSubmit, true);
  // So is a button that only the app can act on (the menu's): it is pressed again then. A submit
  // button's click sends the form, held above.
  window.__portalHoldClick = (event: Event) => {
    const button =
      event.target instanceof Element ? event.target.closest('button[type="button"]') : null;
    if (!(button instanceof HTMLButtonElement)) return;
    event.stopPropagation();
    window.__portalHeldButton = button;
  };
  document.addEventListener('click', window.__portalHoldClick, true);
  // An image that fails before the app is there (the tenant's logo) gets its fallback then.
  window.__portalFailedImages = [];
  window.__portalNoteFailure = (event: Event) => {
    if (event.target instanceof HTMLImageElement) window.__portalFailedImages?.push(event.target);
  };
  document.addEventListener('error', window.__portalNoteFailure, true);
  // The app's scripts once the page has painted: the stylesheet and the logo do not share the
  // network with 80 KiB of JavaScript first. A page hidden for its language paints nothing: at
  // once then. Without paint timing, a frame's callback and a task after it; a hidden tab paints
  // no frame, so a timer stands in.
  const inject = (scripts: { entry: string; preloads: string[] }) => {
    for (const href of scripts.preloads) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = scripts.entry;
    document.head.append(script);
  };
  const app = options.app;
  let appLoaded = false;
  window.__portalLoadApp = () => {
    if (appLoaded || !app) return;
    appLoaded = true;
    inject(app);
  };
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    // A page in another language than the visitor's is the app's to render afresh.
    if (visitor !== language && app) window.__portalLoadApp?.();
    else inject(options);
  };
  if (visitor !== language) {
    load();
    return;
  }
  if ((PerformanceObserver.supportedEntryTypes || []).indexOf('paint') !== -1) {
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      load();
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(load, 0));
  }
  setTimeout(load, 3000);
}

/** The boot script's source for a page prerendered in `language`. */
export function bootScript(language: string, options: BootOptions): string {
  // JSON of our own constants; `<` escaped all the same, so nothing can close the script element.
  const args = JSON.stringify([language, options]).replace(/</g, '\\u003c');
  return `(${boot.toString()}).apply(null,${args});`;
}

/** The language `#root`'s markup was prerendered in, or null when it is empty (every other page). */
export function prerenderedLanguage(root: HTMLElement): string | null {
  return root.firstChild ? root.getAttribute(prerenderedAttribute) : null;
}

let hydrating = false;
/** From the start of the hydration until its last part (`hydrationTurn`) has been hydrated. */
let takingOver = false;

type Part = { turn: Promise<void>; ready: boolean };
/** The parts of the page hydrated later, each in a task of its own, in the order they came. */
const parts = new Map<string, Part>();
let lastTurn: Promise<void> = Promise.resolve();
let typedRoot: HTMLElement | null = null;

/**
 * A new task, so the browser can paint and answer input in between (`scheduler.yield` where the
 * browser has it: the rest of the work keeps its place ahead of other scripts' tasks).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `render` (the hydration) telling components that they take over prerendered markup.
 * Resolves once every part that waits for its turn (`hydrationTurn`) has been hydrated too.
 */
export async function whileHydrating(render: () => Promise<void> | void): Promise<void> {
  hydrating = takingOver = true;
  let rendered: Promise<void> | void;
  try {
    rendered = render();
  } finally {
    hydrating = false;
  }
  try {
    // React hydrates in tasks of its own: `render` may return when it has committed.
    await rendered;
    await Promise.all([...parts.values()].map((part) => part.turn));
    // A part renders in the microtasks right after its turn: done by the next task.
    if (parts.size > 0) await nextTask();
  } finally {
    parts.clear();
    lastTurn = Promise.resolve();
    takingOver = false;
  }
}

/**
 * For a part of the page hydrated in a task of its own (components/hydrate-later.tsx), so that no
 * single task holds the main thread for the whole page on a slow phone (issue 6, Total Blocking
 * Time): during the hydration, the turn to wait for, one task after the previous part's; null when
 * the part may render now. What was typed is read again just before the part's turn, so keys
 * pressed in the meantime are kept.
 */
export function hydrationTurn(name: string): Promise<void> | null {
  const part = parts.get(name);
  if (part) return part.ready ? null : part.turn;
  if (!hydrating) return null;
  const created: Part = { turn: Promise.resolve(), ready: false };
  created.turn = lastTurn.then(nextTask).then(() => {
    if (typedRoot) captureTyped(typedRoot);
    created.ready = true;
  });
  lastTurn = created.turn;
  parts.set(name, created);
  return created.turn;
}

/** Whether this image of the markup being hydrated failed to load before the app was there. */
export function failedBeforeHydration(image: HTMLImageElement): boolean {
  return takingOver && (window.__portalFailedImages ?? []).includes(image);
}

let typed = new Map<string, string | boolean>();

/** Remembers what is in the prerendered fields now (by `name`), just before the app takes over. */
export function captureTyped(root: HTMLElement): void {
  typedRoot = root;
  typed = new Map();
  for (const input of Array.from(root.querySelectorAll<HTMLInputElement>('input[name]'))) {
    typed.set(input.name, input.type === 'checkbox' ? input.checked : input.value);
  }
}

/** Forgets it once the app has taken over: a later visit to the screen starts empty. */
export function forgetTyped(): void {
  typedRoot = null;
  typed = new Map();
}

/** What was typed into the prerendered text field `name` ('' when nothing). */
export function typedText(name: string): string {
  const value = typed.get(name);
  return typeof value === 'string' ? value : '';
}

/** Whether the prerendered checkbox `name` was ticked. */
export function typedChecked(name: string): boolean {
  return typed.get(name) === true;
}

/**
 * Stops holding forms and clicks back (the app handles them from now on) and returns the form sent
 * and the button pressed meanwhile, if any, for the app to send and press again.
 */
export function takeHeld(): { form: HTMLFormElement | null; button: HTMLButtonElement | null } {
  if (window.__portalHoldSubmit) {
    document.removeEventListener('submit', window.__portalHoldSubmit, true);
  }
  if (window.__portalHoldClick) {
    document.removeEventListener('click', window.__portalHoldClick, true);
  }
  if (window.__portalNoteFailure) {
    document.removeEventListener('error', window.__portalNoteFailure, true);
  }
  const held = { form: window.__portalHeldForm ?? null, button: window.__portalHeldButton ?? null };
  delete window.__portalHoldSubmit;
  delete window.__portalHeldForm;
  delete window.__portalHoldClick;
  delete window.__portalHeldButton;
  delete window.__portalNoteFailure;
  delete window.__portalFailedImages;
  return held;
}
