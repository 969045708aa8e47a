import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bootScript,
  captureTyped,
  forgetTyped,
  staleClass,
  takeHeld,
  typedChecked,
  typedText,
} from './prerender';
import { storageKeys } from './storage';

const options = {
  theme: storageKeys.theme,
  language: storageKeys.language,
  languages: ['es', 'ca', 'en', 'eu'],
  entry: '/assets/index-A1.js',
  preloads: ['/assets/chunk-B2.js'],
};

/** The boot script's loading of the app waits for a frame: let it pass. */
const nextFrame = () =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)));

beforeAll(() => {
  // The app's scripts are not loaded in these tests: their tags are what is checked.
  const happyDOM = (window as unknown as { happyDOM?: { settings: Record<string, unknown> } })
    .happyDOM;
  if (happyDOM) happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;
});

/** Runs the boot script as the page does: its source, on its own. */
function boot(language: string) {
  new Function(bootScript(language, options))();
}

afterEach(async () => {
  await nextFrame();
  takeHeld();
  forgetTyped();
  document.documentElement.removeAttribute('style');
  document.head.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.remove());
  document.body.innerHTML = '';
  document.head.querySelectorAll('script, link').forEach((element) => element.remove());
});

describe('the boot script of a prerendered page', () => {
  it('applies the stored theme before the body paints', () => {
    const meta = Object.assign(document.createElement('meta'), {
      name: 'theme-color',
      content: '#ffffff',
    });
    document.head.append(meta);
    localStorage.setItem(storageKeys.theme, 'dark');
    boot('en');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(meta.content).toBe('#101828');
  });

  it("follows the system's theme while the page is open, until a choice is stored", () => {
    localStorage.removeItem(storageKeys.theme);
    const system = Object.assign(new EventTarget(), { matches: false });
    vi.stubGlobal('matchMedia', () => system);
    const change = (dark: boolean) => {
      system.matches = dark;
      system.dispatchEvent(new Event('change'));
    };
    try {
      boot('es');
      const html = document.documentElement;
      expect(html.classList.contains('dark')).toBe(false);
      change(true);
      expect(html.classList.contains('dark')).toBe(true);
      expect(html.style.colorScheme).toBe('dark');
      localStorage.setItem(storageKeys.theme, 'light');
      change(true);
      expect(html.classList.contains('dark')).toBe(false);
    } finally {
      vi.unstubAllGlobals();
      localStorage.removeItem(storageKeys.theme);
      document.documentElement.classList.remove('dark');
    }
  });

  it("hides the markup when the visitor's language is not the page's", () => {
    localStorage.setItem(storageKeys.language, 'ca');
    boot('es');
    expect(document.documentElement.classList.contains(staleClass)).toBe(true);
    // Nothing to paint meanwhile: the app's scripts load at once.
    expect(document.head.querySelectorAll('script[type="module"]')).toHaveLength(1);
  });

  it('leaves it shown in the same language, a regional code included', () => {
    localStorage.setItem(storageKeys.language, 'en-GB');
    boot('en');
    expect(document.documentElement.classList.contains(staleClass)).toBe(false);
  });

  it('holds back a form sent before the app, until the app takes it', () => {
    boot('en');
    const form = document.createElement('form');
    document.body.append(form);
    const early = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(early);
    expect(early.defaultPrevented).toBe(true);
    expect(takeHeld().form).toBe(form);
    // From then on forms are the app's (a payment form posts to the gateway for real).
    const later = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    expect(takeHeld().form).toBeNull();
  });

  it("loads the app's scripts only after the page's first frame", async () => {
    // The test browser speaks English, as the page does.
    boot('en');
    const scripts = () => document.head.querySelectorAll('script[type="module"]');
    expect(scripts()).toHaveLength(0);
    await nextFrame();
    expect([...scripts()].map((script) => script.getAttribute('src'))).toEqual([
      '/assets/index-A1.js',
    ]);
    const preloads = document.head.querySelectorAll('link[rel="modulepreload"]');
    expect([...preloads].map((link) => link.getAttribute('href'))).toEqual(['/assets/chunk-B2.js']);
  });

  it('holds the last button pressed before the app, but not a submit button', () => {
    boot('en');
    document.body.innerHTML =
      '<button type="button" id="menu"><svg></svg></button><form><button type="submit">Go</button></form>';
    document.querySelector('#menu svg')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    document.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
    expect(takeHeld().button).toBe(document.querySelector('#menu'));
    document.querySelector<HTMLButtonElement>('#menu')?.click();
    expect(takeHeld().button).toBeNull();
  });

  it('keeps a held press and a held form from the parts already taken over', () => {
    boot('en');
    document.body.innerHTML =
      '<button type="button" id="menu">Menu</button><form><input name="email" /></form>';
    const menu = document.querySelector<HTMLButtonElement>('#menu');
    const form = document.querySelector('form');
    if (!menu || !form) throw new Error('no markup');
    // A part hydrated early has its handlers; the press and the form wait for the whole page.
    const pressed = vi.fn();
    const sent = vi.fn();
    menu.addEventListener('click', pressed);
    form.addEventListener('submit', sent);
    menu.click();
    form.requestSubmit();
    expect(pressed).not.toHaveBeenCalled();
    expect(sent).not.toHaveBeenCalled();
    const held = takeHeld();
    expect(held).toEqual({ form, button: menu });
    // Pressed again once the app has it all: it acts once.
    held.button?.click();
    expect(pressed).toHaveBeenCalledTimes(1);
  });

  it('cannot be closed early by what it carries', () => {
    expect(bootScript('</script><script>alert(1)', options)).not.toContain('</script>');
  });
});

describe('captureTyped', () => {
  it('keeps what was typed and ticked, until forgotten', () => {
    document.body.innerHTML =
      '<input name="email" value="a@b.es"><input name="remember" type="checkbox" checked>';
    captureTyped(document.body);
    expect(typedText('email')).toBe('a@b.es');
    expect(typedChecked('remember')).toBe(true);
    expect(typedText('password')).toBe('');
    forgetTyped();
    expect(typedText('email')).toBe('');
    expect(typedChecked('remember')).toBe(false);
  });
});
