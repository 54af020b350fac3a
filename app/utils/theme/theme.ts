import type { ThemeJSON } from '~/types/entities';
import { fontStack } from './fonts';

export type Hsl = { h: number; s: number; l: number };

/** Parse 'hsl(347, 100%, 56%)' or '#ff1f5a' into HSL numbers; falls back to the default pink. */
export function parseColour(value: string): Hsl {
  const hsl = /^hsl\(\s*([\d.]+)(?:deg)?\s*,?\s*([\d.]+)%\s*,?\s*([\d.]+)%\s*\)$/i.exec(
    value.trim(),
  );
  if (hsl)
    return {
      h: Number(hsl[1]) % 360,
      s: Math.min(100, Number(hsl[2])),
      l: Math.min(100, Number(hsl[3])),
    };
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (hex) {
    const full = hex[1].length === 3 ? hex[1].replace(/./g, (c) => c + c) : hex[1];
    const r = parseInt(full.slice(0, 2), 16) / 255;
    const g = parseInt(full.slice(2, 4), 16) / 255;
    const b = parseInt(full.slice(4, 6), 16) / 255;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const l = (max + min) / 2;
    let h = 0;
    let s = 0;
    if (max !== min) {
      const d = max - min;
      s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
      h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      h *= 60;
    }
    return { h: Math.round(h), s: Math.round(s * 100), l: Math.round(l * 100) };
  }
  return { h: 347, s: 100, l: 56 };
}

const v = ({ h, s, l }: Hsl) => `${Math.round(h)} ${Math.round(s)}% ${Math.round(l)}%`;

/** Relative luminance of an HSL colour (WCAG). */
function luminance({ h, s, l }: Hsl): number {
  const sat = s / 100;
  const lig = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(lig, 1 - lig);
  const f = (n: number) => lig - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(f(0)) + 0.7152 * lin(f(8)) + 0.0722 * lin(f(4));
}

export function contrastRatio(a: Hsl, b: Hsl): number {
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
}

/**
 * Keep the primary colour readable as text on the background: darken it on light
 * backgrounds and lighten it on dark ones until it reaches WCAG AA (4.5:1).
 */
export function readableOn(colour: Hsl, background: Hsl): Hsl {
  const c = { ...colour };
  const towardsLight = luminance(background) < 0.2;
  for (let i = 0; i < 60 && contrastRatio(c, background) < 4.5; i++) {
    c.l = Math.max(0, Math.min(100, c.l + (towardsLight ? 1 : -1)));
  }
  return c;
}

/** Black or white text on the primary colour, whichever contrasts more. */
export function foregroundFor(colour: Hsl): Hsl {
  const white = { h: 0, s: 0, l: 100 };
  const black = { h: 0, s: 0, l: 4 };
  return contrastRatio(colour, white) >= contrastRatio(colour, black) ? white : black;
}

function palette(theme: ThemeJSON, mode: 'dark' | 'light'): Record<string, string> {
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
  const dark = declarations(palette(theme, 'dark'));
  const light = declarations(palette(theme, 'light'));
  if (theme.appearance === 'system') {
    return `:root{${shared}${light}color-scheme:light}@media (prefers-color-scheme: dark){:root{${dark}color-scheme:dark}}`;
  }
  return `:root{${shared}${theme.appearance === 'dark' ? dark : light}color-scheme:${theme.appearance}}`;
}
