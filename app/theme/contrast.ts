/** Colour arithmetic for the theme: parsing, WCAG luminance and contrast (no fonts, no CSS). */
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
