import { describe, expect, it } from 'vitest';
import {
  applyPrimaryColor,
  baseLevelFor,
  buildColorScale,
  buildPrimaryPalette,
  contrastRatio,
  darkSurface,
  lightSurface,
  normalizeHex,
  relativeLuminance,
  scaleLevels,
} from './colors';
import cssSource from '../index.css?raw';

describe('normalizeHex (spec §5: the primary colour is normalised to begin with #)', () => {
  it('adds a missing # and keeps an existing one', () => {
    expect(normalizeHex('FF9900')).toBe('#FF9900');
    expect(normalizeHex('#123abc')).toBe('#123abc');
    expect(normalizeHex(' 00ff00 ')).toBe('#00ff00');
  });
});

describe('baseLevelFor (spec §9 luminance thresholds)', () => {
  it('places a colour below 0.15 at 700 and below 0.3 at 600', () => {
    expect(baseLevelFor(0)).toBe(700);
    expect(baseLevelFor(0.149)).toBe(700);
    expect(baseLevelFor(0.15)).toBe(600);
    expect(baseLevelFor(0.299)).toBe(600);
  });

  it('places a colour above 0.85 at 300 and above 0.55 at 400', () => {
    expect(baseLevelFor(1)).toBe(300);
    expect(baseLevelFor(0.851)).toBe(300);
    expect(baseLevelFor(0.85)).toBe(400);
    expect(baseLevelFor(0.551)).toBe(400);
  });

  it('places everything else at 500', () => {
    expect(baseLevelFor(0.3)).toBe(500);
    expect(baseLevelFor(0.42)).toBe(500);
    expect(baseLevelFor(0.55)).toBe(500);
  });
});

describe('buildColorScale (spec §9)', () => {
  it('has the eleven levels 50..950', () => {
    expect(Object.keys(buildColorScale('FF9900')).map(Number)).toEqual([...scaleLevels]);
  });

  it('puts the default FF9900 (luminance about 0.44) at 500, 85 % white at 50, 75 % black at 950', () => {
    expect(relativeLuminance('#ff9900')).toBeCloseTo(0.44, 2);
    const scale = buildColorScale('FF9900');
    expect(scale[500]).toBe('#ff9900');
    // 255 + 0 * 0.85, 153 + 102 * 0.85 = 239.7, 0 + 255 * 0.85 = 216.75
    expect(scale[50]).toBe('#fff0d9');
    // 255 * 0.25 = 63.75, 153 * 0.25 = 38.25, 0
    expect(scale[950]).toBe('#402600');
  });

  it('puts a very dark colour at 700 and a very light one at 300', () => {
    expect(buildColorScale('#1a1a2e')[700]).toBe('#1a1a2e');
    expect(buildColorScale('#f0f8ff')[300]).toBe('#f0f8ff');
  });

  it('puts a mid-dark colour (luminance 0.15..0.3) at 600 and a light one (0.55..0.85) at 400', () => {
    expect(relativeLuminance('#2a9d8f')).toBeGreaterThan(0.15);
    expect(relativeLuminance('#2a9d8f')).toBeLessThan(0.3);
    expect(buildColorScale('2a9d8f')[600]).toBe('#2a9d8f');
    expect(relativeLuminance('#7fdbff')).toBeGreaterThan(0.55);
    expect(relativeLuminance('#7fdbff')).toBeLessThan(0.85);
    expect(buildColorScale('7fdbff')[400]).toBe('#7fdbff');
  });

  it('always ends at 85 % white and 75 % black, whatever the base level', () => {
    const scale = buildColorScale('#000000');
    expect(scale[700]).toBe('#000000');
    expect(scale[50]).toBe('#d9d9d9'); // 255 * 0.85 = 216.75
    expect(scale[950]).toBe('#000000');
    expect(buildColorScale('#ffffff')[950]).toBe('#404040'); // 255 * 0.25 = 63.75
  });

  it('is monotonic: every level is darker than the one before', () => {
    for (const color of [
      'FF9900',
      '#1a1a2e',
      '#f0f8ff',
      '#2a9d8f',
      '#7fdbff',
      '#c0392b',
      '#ffff00',
    ]) {
      const luminances = scaleLevels.map((l) => relativeLuminance(buildColorScale(color)[l]));
      for (let i = 1; i < luminances.length; i++) {
        expect(luminances[i]).toBeLessThan(luminances[i - 1] as number);
      }
    }
  });

  it('falls back to the default colour when the value is not a colour', () => {
    expect(buildColorScale('not-a-colour')).toEqual(buildColorScale('FF9900'));
  });
});

describe('buildPrimaryPalette', () => {
  it("fills with the tenant's own colour: white text when it reads, else black", () => {
    expect(buildPrimaryPalette('1F7A4D')).toMatchObject({ fill: '#1f7a4d', onFill: '#ffffff' });
    expect(buildPrimaryPalette('FF9900')).toMatchObject({ fill: '#ff9900', onFill: '#000000' });
  });

  it('chooses text colours that pass WCAG AA whatever the tenant colour', () => {
    for (const color of [
      'FF9900',
      '#1a1a2e',
      '#f0f8ff',
      '#ffff00',
      '#0000ff',
      '#808080',
      '#e11d48',
    ]) {
      const palette = buildPrimaryPalette(color);
      expect(contrastRatio(palette.onFill, palette.fill)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(palette.inkLight, lightSurface)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(palette.inkLight, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(palette.inkDark, darkSurface)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('applyPrimaryColor', () => {
  it('sets --color-primary-50..950 on the root element', () => {
    const root = document.createElement('div');
    applyPrimaryColor('FF9900', root);
    expect(root.style.getPropertyValue('--color-primary-500')).toBe('#ff9900');
    expect(root.style.getPropertyValue('--color-primary-50')).toBe('#fff0d9');
    expect(root.style.getPropertyValue('--on-primary')).not.toBe('');
  });

  it('matches the defaults written in index.css (shown before the script runs)', () => {
    const scale = buildColorScale('FF9900');
    for (const level of scaleLevels) {
      expect(cssSource).toContain(`--color-primary-${level}: ${scale[level]};`);
    }
  });
});
