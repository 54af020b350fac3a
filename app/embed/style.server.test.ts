import { describe, expect, it } from 'vitest';

import { DEFAULT_THEME } from '~/models/theme.server';
import { contrastRatio, parseColour } from '~/theme/theme';
import type { ThemeJSON } from '~/types/entities';

import { embedColours, embedStyle } from './style.server';

const ratio = (a: string, b: string) => contrastRatio(parseColour(a), parseColour(b));

describe('the embed player wears the theme', () => {
  it("takes the theme's primary colour as its accent and its two fonts", () => {
    const css = embedStyle(DEFAULT_THEME, 'dark');
    expect(embedColours(DEFAULT_THEME, 'dark').accent).toBe('hsl(347 100% 56%)');
    expect(css).toContain('--accent:hsl(347 100% 56%);');
    expect(css).toContain("--font-heading:'Orbitron', 'Orbitron Fallback'");
    expect(css).toContain("--font-body:'Inter', 'Inter Fallback'");
    expect(css).toContain('color-scheme:dark');
    expect(embedStyle(DEFAULT_THEME, 'light')).toContain('color-scheme:light');
  });

  // Text 4.5:1 on the background (WCAG AA); the play icon on the accent 3:1 (a graphic).
  const primaries = ['hsl(347, 100%, 56%)', '#ffd400', '#1e3a8a', '#22c55e', '#808080'];
  const variants: ThemeJSON['variant'][] = ['vibrant', 'tint', 'professional'];
  for (const primary of primaries) {
    for (const variant of variants) {
      for (const mode of ['dark', 'light'] as const) {
        it(`reads at AA with ${primary}, ${variant}, ${mode}`, () => {
          const c = embedColours({ ...DEFAULT_THEME, primary, variant }, mode);
          expect(ratio(c.fg, c.bg)).toBeGreaterThanOrEqual(4.5);
          expect(ratio(c.muted, c.bg)).toBeGreaterThanOrEqual(4.5);
          expect(ratio(c.accent, c.bg)).toBeGreaterThanOrEqual(4.5);
          expect(ratio(c['accent-fg'], c.accent)).toBeGreaterThanOrEqual(3);
        });
      }
    }
  }
});
