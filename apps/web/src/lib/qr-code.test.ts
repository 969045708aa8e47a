import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { qrMatrix } from './qr-code';

describe('the QR code of the transfer', () => {
  it('draws exactly the dark modules, as runs, with a quiet zone of 4', () => {
    const text =
      'BCD\n002\n1\nSCT\n\nDemo Fitness S.L.\nES7921000813610123456789\n\n\n\nCliente DF-000123\n';
    const { size, runs } = qrMatrix(text);
    const { data } = encode(text, { ecc: 'M', border: 4 });
    expect(size).toBe(data.length);
    const drawn = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
    for (const run of runs) {
      expect(run.width).toBeGreaterThan(0);
      for (let x = run.x; x < run.x + run.width; x += 1) {
        const row = drawn[run.y];
        if (row) row[x] = true;
      }
    }
    expect(drawn).toEqual(data);
    // The quiet zone: nothing dark in the first and last four rows and columns.
    expect(
      runs.every((r) => r.y >= 4 && r.y < size - 4 && r.x >= 4 && r.x + r.width <= size - 4),
    ).toBe(true);
  });
});
