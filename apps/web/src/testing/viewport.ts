import { vi } from 'vitest';

/**
 * A window of the given width for `matchMedia` (`min-width` / `max-width` in px or rem): jsdom
 * answers as a 1024 px desktop, so screens that change layout by width test both on purpose.
 */
export function stubViewport(width: number): void {
  const px = (value: string) =>
    value.endsWith('rem') ? parseFloat(value) * 16 : parseFloat(value);
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*([\d.]+(?:px|rem))/.exec(query)?.[1];
    const max = /max-width:\s*([\d.]+(?:px|rem))/.exec(query)?.[1];
    const matches = (!min || width >= px(min)) && (!max || width <= px(max));
    return {
      matches,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    } as unknown as MediaQueryList;
  });
}
