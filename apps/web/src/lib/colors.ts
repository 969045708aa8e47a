/**
 * The tenant's primary colour turned into a Tailwind-like scale (spec §9), the one source of every
 * primary shade the app paints with.
 */

export const scaleLevels = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
export type ScaleLevel = (typeof scaleLevels)[number];
export type ColorScale = Record<ScaleLevel, string>;

type Rgb = [number, number, number];

const whiteRgb: Rgb = [255, 255, 255];
const blackRgb: Rgb = [0, 0, 0];

/** Lightest level is 85 % white, darkest 75 % black (spec §9). */
const maxTint = 0.85;
const maxShade = 0.75;

/** Spec §5/§9: the colour is normalised to begin with `#`. */
export function normalizeHex(color: string): string {
  const trimmed = color.trim();
  return trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
}

export function parseHex(color: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match?.[1]) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  const value = Number.parseInt(digits, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2 relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(color: string | Rgb): number {
  const rgb = typeof color === 'string' ? parseHex(color) : color;
  if (!rgb) return 0;
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Where the given colour sits in the scale, by its relative luminance (spec §9): below 0.15 at 700,
 * below 0.3 at 600, above 0.85 at 300, above 0.55 at 400, otherwise 500.
 */
export function baseLevelFor(luminance: number): ScaleLevel {
  if (luminance < 0.15) return 700;
  if (luminance < 0.3) return 600;
  if (luminance > 0.85) return 300;
  if (luminance > 0.55) return 400;
  return 500;
}

/** The colour, or the default FF9900 when it is not one. */
function toRgb(color: string): Rgb {
  return parseHex(normalizeHex(color)) ?? [255, 153, 0];
}

function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return from.map((c, i) => c + ((to[i] ?? c) - c) * amount) as Rgb;
}

/**
 * The 11-level scale of a colour: the colour itself at its base level, lighter levels blended
 * toward white in even steps up to 85 % at level 50, darker levels toward black in even steps up to
 * 75 % at level 950 (spec §9). An unreadable colour falls back to the default FF9900.
 */
export function buildColorScale(color: string): ColorScale {
  const rgb = toRgb(color);
  const base = scaleLevels.indexOf(baseLevelFor(relativeLuminance(rgb)));
  const last = scaleLevels.length - 1;
  const scale = {} as ColorScale;
  scaleLevels.forEach((level, i) => {
    const shade =
      i < base
        ? mix(rgb, whiteRgb, (maxTint * (base - i)) / base)
        : i > base
          ? mix(rgb, blackRgb, (maxShade * (i - base)) / (last - base))
          : rgb;
    scale[level] = toHex(shade);
  });
  return scale;
}

/** WCAG AA for normal text, with a little margin for rounding in the browser. */
const minTextContrast = 4.6;

/** Page backgrounds the primary text colour must stand out from (gray-100 and gray-800). */
export const lightSurface = '#f3f4f6';
export const darkSurface = '#1e2939';

export type PrimaryPalette = {
  scale: ColorScale;
  /** Fill of buttons and other primary areas that carry text: the tenant's own colour. */
  fill: string;
  /** Text on `fill`: white when it reads (AA), else black. */
  onFill: string;
  /** Primary-coloured text on light surfaces: the first level from 600 toward 950 that reads. */
  inkLight: string;
  /** Primary-coloured text on dark surfaces: the first level from 400 toward 50 that reads. */
  inkDark: string;
};

const black = '#000000';
const white = '#ffffff';

export function buildPrimaryPalette(color: string): PrimaryPalette {
  const scale = buildColorScale(color);
  const fill = scale[baseLevelFor(relativeLuminance(toRgb(color)))];
  const onFill = contrastRatio(fill, white) >= minTextContrast ? white : black;
  const darker = scaleLevels.filter((l) => l >= 600).map((l) => scale[l]);
  const lighter = scaleLevels
    .filter((l) => l <= 400)
    .reverse()
    .map((l) => scale[l]);
  const inkLight = darker.find((c) => contrastRatio(c, lightSurface) >= minTextContrast) ?? black;
  const inkDark = lighter.find((c) => contrastRatio(c, darkSurface) >= minTextContrast) ?? white;
  return { scale, fill, onFill, inkLight, inkDark };
}

/**
 * Publishes the palette as CSS custom properties on the root element; `index.css` maps them into
 * Tailwind's theme (`bg-primary-500`, `bg-primary-fill`, `text-on-primary`, `text-primary-ink`). Setting properties
 * through CSSOM is allowed by the strict `style-src 'self'` policy.
 */
export function applyPrimaryColor(
  color: string,
  root: HTMLElement = document.documentElement,
): void {
  const { scale, fill, onFill, inkLight, inkDark } = buildPrimaryPalette(color);
  for (const level of scaleLevels) root.style.setProperty(`--color-primary-${level}`, scale[level]);
  root.style.setProperty('--primary-fill', fill);
  root.style.setProperty('--on-primary', onFill);
  root.style.setProperty('--primary-ink-light', inkLight);
  root.style.setProperty('--primary-ink-dark', inkDark);
}
