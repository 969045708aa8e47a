import { describe, expect, it } from 'vitest';
import { zipEntryNames } from './zip.ts';

describe("the invoices' file names in an archive", () => {
  it('are the ids, made safe for every unzip tool', () => {
    expect(zipEntryNames(['F-1', 'A.2026_7'])).toEqual([
      { id: 'F-1', name: 'F-1.pdf' },
      { id: 'A.2026_7', name: 'A.2026_7.pdf' },
    ]);
  });

  it('never name two invoices alike, whatever the case or the characters made safe', () => {
    const names = zipEntryNames([
      'FV/2026/7',
      'FV_2026_7',
      'FV-Ñ7',
      'FV-Ç7',
      'fv_2026_7',
      'FV_2026_7-2',
    ]);
    expect(names.map((n) => n.name)).toEqual([
      'FV_2026_7.pdf',
      'FV_2026_7-2.pdf',
      'FV-_7.pdf',
      'FV-_7-2.pdf',
      'fv_2026_7-3.pdf',
      'FV_2026_7-2-2.pdf',
    ]);
  });
});
