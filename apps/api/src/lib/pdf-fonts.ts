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

/** Registers the portal's fonts on a new document and starts it in the regular one. */
export function usePdfFonts(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  for (const [name, font] of fonts())
    // pdfkit takes a parsed fontkit font (`layout` is what it looks for); its types say only
    // a path or bytes.
    doc.registerFont(name, font as unknown as Buffer);
  return doc.font(pdfFont.regular);
}
