import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderInvoicePdfBytes, type PdfInput } from '../src/modules/invoices/pdf.ts';
import { samplePdfInput, samplePdfLine, samplePdfTenant } from './sample-pdf-parties.ts';

/*
 * What is wrong: the tenant's SVG logo is drawn into every PDF (invoice, receipt, statement,
 * mandate) by svg-to-pdfkit without an `imageCallback` (apps/api/src/modules/invoices/pdf.ts,
 * `drawLogo`). svg-to-pdfkit's default hands an `<image href>` of the SVG to pdfkit's
 * `doc.openImage(link)`, which reads any path with `fs.readFileSync`. So an SVG logo (a file the
 * operator gets from the client organisation; `tenant update --logo` only checks that it starts
 * with `<svg`) makes the PDF renderer read files of the server's disk:
 *   - a PNG or JPEG anywhere the server can read is embedded into every customer's PDF;
 *   - `href="/dev/zero"` or `/dev/urandom`: readFileSync of a device never ends, the heavy-work
 *     process fills its memory until it dies (every PDF of the tenant a 503, the host's memory
 *     taken each time); a pipe (`/proc/self/fd/1` when stdout is a pipe, as in a container) blocks
 *     the process for good, and the heavy-work pool has no task timeout (workers/pool.ts,
 *     process-pool.ts): its documents lane then holds that slot for ever and every tenant's PDFs
 *     wait behind it.
 *
 * Why it matters: a logo is data, and data must not open the server's files (SECURITY.md's
 * posture: nothing outside the request decides what the server reads); one tenant's logo can take
 * every tenant's PDFs down.
 *
 * Right behaviour: `SVGtoPDF(doc, svg, x, y, { imageCallback })` with a callback that passes only
 * `data:image/png|jpeg;base64,...` links and answers '' (nothing drawn) for anything else; and a
 * timeout on a heavy task.
 */

/** A real PNG of `width` x `height` red pixels (what pdfkit can embed). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([255, 0, 0]))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function invoiceWithLogo(mime: string, data: Uint8Array): PdfInput {
  return samplePdfInput(
    { lines: [samplePdfLine()] },
    { tenant: { ...samplePdfTenant(), logo_mime: mime, logo_data: data } },
  );
}

/** The sizes of the images the PDF embeds (its image XObjects' dictionaries are plain text). */
function embeddedImages(pdf: Uint8Array): string[] {
  const text = Buffer.from(pdf).toString('latin1');
  return [...text.matchAll(/\/Subtype \/Image[\s\S]*?\/Width (\d+)[\s\S]*?\/Height (\d+)/g)].map(
    (m) => `${m[1]}x${m[2]}`,
  );
}

describe('the SVG logo drawn into the PDFs', () => {
  let dir: string;
  let secretImage: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'review4-ops-'));
    // A file of the server's disk that is no business of any tenant (7 x 5 pixels: easy to spot).
    secretImage = join(dir, 'server-private.png');
    await writeFile(secretImage, png(7, 5));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds an embedded image when the logo is one (the check below can see images)', async () => {
    const pdf = await renderInvoicePdfBytes(invoiceWithLogo('image/png', png(7, 5)));
    expect(embeddedImages(pdf)).toContain('7x5');
  });

  it("reads no file of the server's disk for an <image href> of the SVG logo", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
      `viewBox="0 0 10 10"><image href="${secretImage}" width="10" height="10"/>` +
      `<image xlink:href="file://${secretImage}" width="10" height="10"/></svg>`;
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const pdf = await renderInvoicePdfBytes(
      invoiceWithLogo('image/svg+xml', new TextEncoder().encode(svg)),
    );
    // Session 39: the server's 7 x 5 PNG was in the customer's invoice.
    expect(embeddedImages(pdf)).toEqual([]);
    // And the refusal writes no line per PDF to the server's log.
    expect(warned).not.toHaveBeenCalled();
    warned.mockRestore();
  });
});
