import { describe, expect, it } from 'vitest';
import { buttonClasses } from './button';

const classes = (s: string) => s.split(' ');

describe('buttonClasses', () => {
  it("lets a caller's text size and height replace the base's (the stylesheet's order would not)", () => {
    const c = classes(buttonClasses('primary', 'min-h-12 w-full text-base'));
    expect(c).toContain('text-base');
    expect(c).not.toContain('text-sm');
    expect(c).toContain('min-h-12');
    expect(c).not.toContain('min-h-11');
    expect(c).toContain('w-full');
  });

  it('keeps the base where the caller sets only a breakpoint or a colour', () => {
    const c = classes(buttonClasses('secondary', 'md:text-base text-gray-700 md:px-6'));
    expect(c).toContain('text-sm');
    expect(c).toContain('px-4');
    expect(c).toContain('md:text-base');
  });

  it('is the base and the variant without a class of the caller', () => {
    const c = classes(buttonClasses('ghost'));
    expect(c).toContain('text-sm');
    expect(c).toContain('min-h-11');
    expect(c).toContain('text-primary-ink');
  });
});
