import { foregroundFor, type Hsl, parseColour, readableOn } from './contrast';

/** Any colour the theme accepts (hsl() or hex) as #rrggbb, for `<input type="color">`. */
export function colourToHex(value: string): string {
  const { h, s, l } = parseColour(value);
  const sat = s / 100;
  const lig = l / 100;
  const a = sat * Math.min(lig, 1 - lig);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = lig - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * The settings form sends the primary colour twice: the text field (`primary`, hsl() or
 * hex) and the colour picker (`primaryPicker`, always #rrggbb). With JavaScript the two
 * are kept in sync; without it only one of them changed. The text field wins when it was
 * edited; otherwise a changed picker wins; otherwise the stored value stays.
 */
export function resolvePrimary(input: {
  text: string | null;
  picker: string | null;
  current: string;
}): string {
  const text = input.text?.trim() ?? '';
  const picker = input.picker?.trim().toLowerCase() ?? '';
  if (text && text !== input.current) return text;
  if (/^#[0-9a-f]{6}$/.test(picker) && picker !== colourToHex(input.current)) return picker;
  return text || input.current;
}

const hslText = (c: Hsl) => `hsl(${c.h}, ${c.s}%, ${c.l}%)`;

/**
 * The theme's primary colour for email (hex, on a white page): the colour itself, the text
 * that reads on it, and a version of it readable as link text on white (WCAG AA).
 */
export function mailPalette(primary: string): { primary: string; onPrimary: string; link: string } {
  const colour = parseColour(primary);
  return {
    primary: colourToHex(hslText(colour)),
    onPrimary: colourToHex(hslText(foregroundFor(colour))),
    link: colourToHex(hslText(readableOn(colour, { h: 0, s: 0, l: 100 }))),
  };
}
