import { describe, expect, it } from 'vitest';

import { THEME_VARIANTS, type ThemeJSON } from '~/types/entities';

import { contrastRatio, type Hsl, themeCss } from './theme';

/** The colour variables of `themeCss`, as HSL numbers. */
function variables(css: string): Record<string, Hsl> {
  const out: Record<string, Hsl> = {};
  for (const [, name, h, s, l] of css.matchAll(/--([a-z-]+):([\d.]+) ([\d.]+)% ([\d.]+)%;/g))
    out[name] = { h: Number(h), s: Number(s), l: Number(l) };
  return out;
}

const theme = (primary: string, variant: ThemeJSON['variant'], appearance: 'dark' | 'light') =>
  ({
    primary,
    variant,
    appearance,
    radius: 0.5,
    headerFont: 'Inter',
    bodyFont: 'Inter',
  }) as ThemeJSON;

describe('placeholder colour (issue 36)', () => {
  it('reads at 4.5:1 on the fields, and is clearly dimmer than typed values and hints', () => {
    for (const appearance of ['dark', 'light'] as const)
      for (const variant of THEME_VARIANTS)
        for (let hue = 0; hue < 360; hue += 15)
          for (const [s, l] of [
            [100, 56],
            [40, 30],
            [90, 85],
          ]) {
            const vars = variables(
              themeCss(theme(`hsl(${hue}, ${s}%, ${l}%)`, variant, appearance)),
            );
            const on = (name: string) => contrastRatio(vars[name], vars.background);
            const where = `${appearance} ${variant} hsl(${hue}, ${s}%, ${l}%)`;
            expect(on('placeholder'), where).toBeGreaterThanOrEqual(4.5);
            expect(on('placeholder'), where).toBeLessThan(5.5);
            // Typed text (the foreground) is at least three times the contrast.
            expect(on('foreground') / on('placeholder'), where).toBeGreaterThanOrEqual(3);
            expect(on('muted-foreground'), where).toBeGreaterThan(on('placeholder'));
          }
  });
});
