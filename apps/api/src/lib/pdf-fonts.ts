import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

/**
 * The fonts of every PDF of the portal (invoices, receipts, statements, mandates): Arimo, Google's
 * font with Arial's (and so Helvetica's) widths, embedded (the glyphs used only). PDF's standard
 * Helvetica has only the Windows-1252 letters: "Ștefan Țurcanu" or "Łukasz" came out as garbage on
 * a legal invoice or a signed mandate, without an error (session 37). Same widths: nothing of the
 * layout moves. Decision 047.
 */
export const pdfFont = { regular: 'Sans', bold: 'Sans-Bold', italic: 'Sans-Italic' } as const;

const files = {
  [pdfFont.regular]: '400Regular/Arimo_400Regular.ttf',
  [pdfFont.bold]: '700Bold/Arimo_700Bold.ttf',
  [pdfFont.italic]: '400Regular_Italic/Arimo_400Regular_Italic.ttf',
};

let loaded: [string, Font][] | undefined;

/**
 * Read and parsed once, on the first PDF (not at start: most processes never draw one), and
 * shared by every document: a font parsed per document laid its text out from cold each time
 * (48 ms a one-page invoice against 2 ms with Helvetica); each document still embeds its own
 * subset.
 */
function fonts(): [string, Font][] {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded = Object.entries(files).map(([name, file]) => [
      name,
      create(readFileSync(require.resolve(`@expo-google-fonts/arimo/${file}`))) as Font,
    ]);
  }
  return loaded;
}

const covered = new Map<number, boolean>();

/**
 * The text with every character the fonts cannot draw (Chinese, emoji...) as "?": before session
 * 38 each was drawn as an empty box and written in the text layer as NUL (a name copied from the
 * PDF came out broken). Line breaks and spaces stay.
 */
export function printable(text: string): string {
  const regular = fonts()[0]?.[1];
  if (!regular || /^[\x20-\x7e\n]*$/.test(text)) return text;
  let out = '';
  for (const character of text) {
    const point = character.codePointAt(0) ?? 0;
    let known = covered.get(point);
    if (known === undefined) {
      known = point < 0x20 || regular.hasGlyphForCodePoint(point);
      covered.set(point, known);
    }
    out += known ? character : '?';
  }
  return out;
}

/**
 * Registers the portal's fonts on a new document and starts it in the regular one; its text (and
 * what measures it) goes through `printable`.
 */
export function usePdfFonts(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  for (const [name, font] of fonts())
    // pdfkit takes a parsed fontkit font (`layout` is what it looks for); its types say only
    // a path or bytes.
    doc.registerFont(name, font as unknown as Buffer);
  const text = doc.text.bind(doc);
  const heightOfString = doc.heightOfString.bind(doc);
  const widthOfString = doc.widthOfString.bind(doc);
  // pdfkit's overloads (text alone, with a position, with options) all take the text first.
  doc.text = ((value: unknown, ...rest: unknown[]) =>
    (text as (...args: unknown[]) => PDFKit.PDFDocument)(
      typeof value === 'string' ? printable(value) : value,
      ...rest,
    )) as typeof doc.text;
  doc.heightOfString = (value, options) => heightOfString(printable(value), options);
  doc.widthOfString = (value, options) => widthOfString(printable(value), options);
  return doc.font(pdfFont.regular);
}
