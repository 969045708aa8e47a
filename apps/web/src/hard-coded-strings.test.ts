// eslint-disable-next-line no-restricted-imports -- a test that reads the source files themselves
import { readdirSync, readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports -- as above
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 8: every user-visible string comes from the translation files. This reads every component
 * of the app with the TypeScript compiler and fails on text a user would see that is written in
 * the code instead: JSX text, a string literal rendered as a child, and the attributes a browser
 * shows or reads aloud (aria-label, title, placeholder, alt...). Missing keys are caught elsewhere:
 * `t()` keys are type-checked against the Spanish files (types/i18next.d.ts) and lib/i18n.test.ts
 * proves the four languages have the same keys.
 */
const srcDir = import.meta.dirname;

/** Attributes whose value is shown or announced. */
const visibleAttributes = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
  'label',
  'placeholder',
  'title',
]);

/** A letter in any script: digits, punctuation and symbols alone (`€`, `·`, `/`) are not words. */
const hasWord = (text: string): boolean => /\p{L}/u.test(text);

function componentFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : componentFiles(path);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [path] : [];
  });
}

type Finding = { file: string; line: number; text: string };

export function findHardCodedStrings(fileName: string, source: string): Finding[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string) =>
    findings.push({
      file: fileName,
      line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
      text: text.trim(),
    });
  const literalText = (node: ts.Node | undefined): string | undefined =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      ? node.text
      : undefined;

  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && hasWord(node.text)) report(node, node.text);
    // {'Some text'} as a child of an element.
    if (ts.isJsxExpression(node) && ts.isJsxElement(node.parent)) {
      const text = literalText(node.expression);
      if (text !== undefined && hasWord(text)) report(node, text);
    }
    if (ts.isJsxAttribute(node) && visibleAttributes.has(node.name.getText(file))) {
      const value = node.initializer;
      const text =
        literalText(value) ??
        (value && ts.isJsxExpression(value) ? literalText(value.expression) : undefined);
      if (text !== undefined && hasWord(text)) report(node, `${node.name.getText(file)}="${text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}

describe('hard-coded strings', () => {
  it('finds JSX text, rendered literals and visible attributes (the checker itself)', () => {
    const found = findHardCodedStrings(
      'x.tsx',
      `export const A = () => (
        <div title="Hola" data-testid="ok" className="p-4">
          Pagar ahora {'Cancelar'} {t('ok')} · 12 € <img alt={'Logo'} />
          <input placeholder={t('x')} aria-label="Buscar" />
        </div>
      );`,
    );
    expect(found.map((f) => f.text)).toEqual([
      'title="Hola"',
      'Pagar ahora',
      'Cancelar',
      'alt="Logo"',
      'aria-label="Buscar"',
    ]);
  });

  it('finds none in the app: every visible text comes from the translation files', () => {
    const files = componentFiles(srcDir);
    expect(files.length).toBeGreaterThan(30);
    const findings = files.flatMap((path) =>
      findHardCodedStrings(relative(srcDir, path), readFileSync(path, 'utf8')),
    );
    expect(findings.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });
});
