import { describe, expect, it } from 'vitest';
import {
  allowInline,
  fillTemplate,
  isTemplate,
  pageLanguage,
  styleAttributesOf,
  takeScripts,
} from './login-page.ts';

const languages = ['es', 'ca', 'en', 'eu'];

describe('pageLanguage', () => {
  it.each([
    [undefined, 'es'],
    ['', 'es'],
    ['en-US,en;q=0.9', 'en'],
    ['ca-ES,ca;q=0.9,es;q=0.8', 'ca'],
    ['fr-FR,fr;q=0.9,eu;q=0.5', 'eu'],
    ['de-DE,fr;q=0.8', 'es'],
    ['es;q=0.2,en;q=0.8', 'en'],
    ['*', 'es'],
  ])('%s -> %s', (header, expected) => {
    expect(pageLanguage(header, languages)).toBe(expected);
  });
});

describe('allowInline', () => {
  it("adds the page's script and style hashes to their directives only", () => {
    const csp = "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:";
    const result = allowInline(csp, 'run()', ':root{}');
    const [defaults, script, style, img] = result.split(';');
    expect(defaults).toBe("default-src 'self'");
    expect(script).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(style).toMatch(/^style-src 'self' 'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(img).toBe("img-src 'self' data:");
    // The hash is the script's: another script is not allowed by it.
    expect(allowInline(csp, 'other()', ':root{}')).not.toBe(result);
  });
});

const template = `<!doctype html>
<html lang="es">
  <head>
    <title>Oficina Online</title>
    <script type="module" crossorigin src="/assets/index-A1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-B2.js">
    <link rel="modulepreload" crossorigin href="/assets/chunk-C3.js">
    <link rel="stylesheet" crossorigin href="/assets/index-D4.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('fillTemplate', () => {
  it('puts in the language, the escaped title, the inline parts and the screen', () => {
    const html = fillTemplate(template, {
      language: 'ca',
      title: 'Club <b> & "$&"',
      style: ':root{--x:1}',
      script: 'boot()',
      attribute: 'data-prerendered',
      markup: '<main>$& $1</main>',
    });
    expect(html).toContain('<html lang="ca">');
    expect(html).toContain('<title>Club &lt;b&gt; &amp; &quot;$&amp;&quot;</title>');
    expect(html).toContain('<style>:root{--x:1}</style><script>boot()</script></head>');
    // `$&` in the markup is text, not a replacement pattern.
    expect(html).toContain('<div id="root" data-prerendered="ca"><main>$& $1</main></div>');
  });

  it('takes the scripts out, for the boot script to load after the first paint', () => {
    const taken = takeScripts(template);
    expect(taken?.scripts).toEqual({
      entry: '/assets/index-A1.js',
      preloads: ['/assets/jsx-runtime-B2.js', '/assets/chunk-C3.js'],
    });
    expect(taken?.template).not.toContain('<script');
    expect(taken?.template).not.toContain('modulepreload');
    // The stylesheet stays: the page paints with it.
    expect(taken?.template).toContain('href="/assets/index-D4.css"');
  });

  it('takes only a template with every mark', () => {
    expect(isTemplate(template.replace(/<script[^>]*><\/script>/, ''))).toBe(false);
    expect(isTemplate(template)).toBe(true);
    expect(isTemplate(template.replace('<div id="root"></div>', '<div id="app"></div>'))).toBe(
      false,
    );
    expect(isTemplate(template.replace('<title>Oficina Online</title>', ''))).toBe(false);
  });
});

describe('style attributes of the server-rendered markup', () => {
  it('are allowed each by its hash under unsafe-hashes, and nothing else inline', async () => {
    const { createHash } = await import('node:crypto');
    const html = '<input style="position:absolute;opacity:0"/><div style="a:&quot;b&quot;"></div>';
    const found = styleAttributesOf(html);
    expect(found).toEqual(['position:absolute;opacity:0', 'a:"b"']);
    const csp = allowInline("default-src 'self'; style-src 'self'", 'run()', ':root{}', found);
    const hash = createHash('sha256').update('position:absolute;opacity:0').digest('base64');
    expect(csp).toContain(`'unsafe-hashes' 'sha256-${hash}'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(allowInline("style-src 'self'", '', ':root{}')).not.toContain('unsafe-hashes');
  });
});
