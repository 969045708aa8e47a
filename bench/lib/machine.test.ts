import { describe, expect, it } from 'vitest';
import { autogroupsEnabled } from './machine.ts';

describe('autogroupsEnabled', () => {
  it("reads the kernel's switch", () => {
    expect(autogroupsEnabled(() => '1\n')).toBe(true);
    expect(autogroupsEnabled(() => '0\n')).toBe(false);
  });

  it('says nothing where the kernel has no such switch', () => {
    expect(
      autogroupsEnabled(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
  });
});
