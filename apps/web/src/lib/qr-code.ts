import { encode } from 'uqr';

/** One dark run of modules in a row of the QR code. */
export type QrRun = { x: number; y: number; width: number };

export type QrMatrix = { size: number; runs: QrRun[] };

/**
 * The modules of a QR code as horizontal runs, so an SVG draws a few hundred rects rather than
 * thousands. Error correction M, as the EPC guidelines ask for the SEPA transfer QR; a quiet zone
 * of 4 modules on each side (the QR standard's).
 */
export function qrMatrix(text: string): QrMatrix {
  const { size, data } = encode(text, { ecc: 'M', border: 4 });
  const runs: QrRun[] = [];
  data.forEach((row, y) => {
    let start = -1;
    row.forEach((dark, x) => {
      if (dark && start < 0) start = x;
      if (!dark && start >= 0) {
        runs.push({ x: start, y, width: x - start });
        start = -1;
      }
    });
    if (start >= 0) runs.push({ x: start, y, width: row.length - start });
  });
  return { size, runs };
}
