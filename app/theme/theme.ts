import type { ThemeJSON } from '~/types/entities';

import { contrastRatio, foregroundFor, type Hsl, parseColour, readableOn } from './contrast';
import { fontStack } from './fonts';

export { contrastRatio, type Hsl, parseColour };

/** An HSL colour as the `H S% L%` triple the CSS variables hold. */
const v = ({ h, s, l }: Hsl) => `${Math.round(h)} ${Math.round(s)}% ${Math.round(l)}%`;

/**
 * The theme's colours in one mode, as `H S% L%` triples by variable name (`primary`,
 * `background`, …): the site's CSS variables, and the embed player's colours (decision 038).
 */
export function themePalette(theme: ThemeJSON, mode: 'dark' | 'light'): Record<string, string> {
  const p = parseColour(theme.primary);
  const hue = p.h;
  // Variant: professional = neutral greys, tint = surfaces tinted by the primary hue,
  // vibrant = tinted surfaces and a saturated accent.
  const surfaceSat = theme.variant === 'professional' ? 6 : theme.variant === 'tint' ? 22 : 30;
  const dark = mode === 'dark';
  const background: Hsl = dark ? { h: hue, s: surfaceSat, l: 6 } : { h: hue, s: surfaceSat, l: 98 };
  const foreground: Hsl = dark ? { h: hue, s: 10, l: 96 } : { h: hue, s: 20, l: 10 };
  const card: Hsl = dark ? { h: hue, s: surfaceSat, l: 9 } : { h: hue, s: surfaceSat, l: 100 };
  const muted: Hsl = dark ? { h: hue, s: surfaceSat, l: 15 } : { h: hue, s: surfaceSat, l: 93 };
  const mutedForeground = readableOn(
    dark ? { h: hue, s: 10, l: 70 } : { h: hue, s: 12, l: 38 },
    muted,
  );
  // Form placeholders (issue 36): dimmer than any value typed (the foreground, 16:1 or more) and
  // than the hints (muted-foreground), yet still 4.5:1 on the field's background: from a dim grey,
  // lightened (dark) or darkened (light) only as far as AA needs. Italic too (tailwind.css).
  const placeholder = readableOn(
    dark ? { h: hue, s: 8, l: 30 } : { h: hue, s: 8, l: 75 },
    background,
  );
  const primary = readableOn(p, background);
  const accentHue = theme.variant === 'vibrant' ? (hue + 300) % 360 : hue;
  const accent: Hsl = readableOn(
    { h: accentHue, s: theme.variant === 'professional' ? 30 : 85, l: dark ? 65 : 40 },
    background,
  );
  const secondary: Hsl = dark ? { h: hue, s: surfaceSat, l: 18 } : { h: hue, s: surfaceSat, l: 90 };
  const destructive: Hsl = dark ? { h: 0, s: 84, l: 60 } : { h: 0, s: 74, l: 42 };
  const border: Hsl = dark ? { h: hue, s: surfaceSat, l: 22 } : { h: hue, s: surfaceSat, l: 84 };
  return {
    background: v(background),
    foreground: v(foreground),
    card: v(card),
    'card-foreground': v(foreground),
    popover: v(card),
    'popover-foreground': v(foreground),
    primary: v(primary),
    'primary-foreground': v(foregroundFor(primary)),
    secondary: v(secondary),
    'secondary-foreground': v(foreground),
    muted: v(muted),
    'muted-foreground': v(mutedForeground),
    placeholder: v(placeholder),
    accent: v(accent),
    'accent-foreground': v(foregroundFor(accent)),
    destructive: v(destructive),
    'destructive-foreground': v(foregroundFor(destructive)),
    border: v(border),
    input: v(border),
    ring: v(primary),
  };
}

const declarations = (vars: Record<string, string>) =>
  Object.entries(vars)
    .map(([k, val]) => `--${k}:${val};`)
    .join('');

/**
 * The theme as CSS custom properties, rendered in a <style> in the document head so
 * the first paint already has the right colours and fonts (no flash). 'system'
 * follows prefers-color-scheme.
 */
export function themeCss(theme: ThemeJSON): string {
  const shared = `--radius:${Math.max(0, Math.min(2, theme.radius))}rem;--font-heading:${fontStack(theme.headerFont)};--font-body:${fontStack(theme.bodyFont)};`;
  const dark = declarations(themePalette(theme, 'dark'));
  const light = declarations(themePalette(theme, 'light'));
  if (theme.appearance === 'system') {
    return `:root{${shared}${light}color-scheme:light}@media (prefers-color-scheme: dark){:root{${dark}color-scheme:dark}}`;
  }
  return `:root{${shared}${theme.appearance === 'dark' ? dark : light}color-scheme:${theme.appearance}}`;
}
