import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';

/** A file name a ZIP entry (and every unzip tool) takes as is: the invoice id, nothing else. */
const zipEntryName = (invoiceId: string): string => `${invoiceId.replace(/[^\w.-]/g, '_')}.pdf`;

/**
 * Each invoice's file in the archive, named after its id: ids the file name cannot tell apart
 * (`FV/2026/7` and `FV_2026_7`, `FV-Ñ7` and `FV-Ç7`) get `-2`, `-3`..., or one would overwrite the
 * other when unzipped.
 */
export const zipEntryNames = (ids: readonly string[]): { id: string; name: string }[] => {
  const used = new Set<string>();
  return ids.map((id) => {
    const base = zipEntryName(id);
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = base.replace(/\.pdf$/, `-${n}.pdf`);
    used.add(name.toLowerCase());
    return { id, name };
  });
};

/**
 * Several documents as one ZIP, streamed: each document is made (`render`, on the heavy-work pool)
 * only when the previous one has been written and the response has room for more, so memory holds
 * one PDF at a time whatever the count. The PDFs are stored, not deflated again (their content is
 * already compressed), so the event loop only copies bytes and sums a CRC. A failure mid-way ends
 * the stream with the error (the client sees a broken download, never a partial ZIP that looks
 * whole); a client that goes away stops the work.
 */
export function streamZip(
  entries: { name: string; id: string }[],
  render: (id: string) => Promise<Uint8Array>,
): Readable {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      out.destroy(error);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  void (async () => {
    try {
      for (const entry of entries) {
        if (out.destroyed) return;
        const bytes = await render(entry.id);
        if (out.destroyed) return;
        const file = new ZipPassThrough(entry.name);
        zip.add(file);
        file.push(bytes, true);
        if (out.writableNeedDrain) {
          await new Promise<void>((resolve) => {
            const done = () => {
              out.off('drain', done);
              out.off('close', done);
              resolve();
            };
            out.on('drain', done);
            out.on('close', done);
          });
        }
      }
      zip.end();
    } catch (error) {
      zip.terminate();
      out.destroy(error instanceof Error ? error : new Error('ZIP failed'));
    }
  })();
  return out;
}
