import fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { fontStack } from '~/theme/fonts';

import { fallbackFontFaces, themeFonts, westernFontFaces } from './fonts.server';

describe('metric-matched fallback fonts', () => {
  it('declares a regular and a bold local Arial-like face with the web font’s metrics', () => {
    const css = fallbackFontFaces('Inter');
    const faces = css.match(/@font-face\{[^}]*\}/g) ?? [];
    expect(faces).toHaveLength(2);
    expect(faces[0]).toContain("font-family:'Inter Fallback'");
    expect(faces[0]).toContain('font-weight:400');
    expect(faces[0]).toContain("local('Arial')");
    expect(faces[0]).toContain("local('Liberation Sans')");
    expect(faces[1]).toContain('font-weight:700');
    expect(faces[1]).toContain("local('Liberation Sans Bold')");
    // Inter is wider than Arial (xWidthAvg/unitsPerEm 0.524 vs 0.446): scaled up.
    const sizeAdjust = Number(/size-adjust:([\d.]+)%/.exec(css)?.[1]);
    expect(sizeAdjust).toBeGreaterThan(105);
    expect(sizeAdjust).toBeLessThan(125);
    expect(css).toMatch(
      /ascent-override:[\d.]+%;descent-override:[\d.]+%;line-gap-override:[\d.]+%/,
    );
  });

  it('adds the fallback faces of both theme fonts to the head’s font CSS, once each', () => {
    const { css } = themeFonts('Orbitron', 'Orbitron');
    expect(css.match(/font-family:'Orbitron Fallback'/g)).toHaveLength(2);
    const two = themeFonts('Orbitron', 'Inter').css;
    expect(two).toContain("'Orbitron Fallback'");
    expect(two).toContain("'Inter Fallback'");
  });

  it('puts the fallback right after the web font in the stack', () => {
    expect(fontStack('Permanent Marker')).toBe(
      "'Permanent Marker', 'Permanent Marker Fallback', ui-sans-serif, system-ui, sans-serif",
    );
  });
});

describe('westernFontFaces', () => {
  it('keeps the Latin and Latin Extended faces of a @fontsource stylesheet, WOFF2 only', () => {
    const source = fs.readFileSync('node_modules/@fontsource/inter/400.css', 'utf8');
    expect(source).toContain('cyrillic');
    const css = westernFontFaces(source);
    const faces = css.match(/@font-face\s*\{[^}]*\}/g) ?? [];
    expect(faces).toHaveLength(2);
    expect(faces.some((f) => f.includes('inter-latin-400-normal.woff2'))).toBe(true);
    expect(faces.some((f) => f.includes('inter-latin-ext-400-normal.woff2'))).toBe(true);
    expect(css).not.toMatch(/cyrillic|greek|vietnamese|\.woff\)/);
    // Each kept rule is whole: family, weight, display, one source and its unicode range.
    for (const face of faces) {
      expect(face).toMatch(/font-family:\s*'?Inter/);
      expect(face).toContain('font-display: swap');
      expect(face).toMatch(/src:\s*url\([^)]*\.woff2\) format\('woff2'\);/);
      expect(face).toContain('unicode-range');
    }
  });

  it('keeps a font that has only a Latin subset', () => {
    const source = fs.readFileSync('node_modules/@fontsource/orbitron/700.css', 'utf8');
    expect(westernFontFaces(source).match(/@font-face/g)).toHaveLength(1);
  });
});
