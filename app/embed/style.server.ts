import { themeFonts } from '~/document/fonts.server';
import { Lru } from '~/platform/lru.server';
import { fontStack } from '~/theme/fonts';
import { themePalette } from '~/theme/theme';
import { EMBED_MIN_WIDTH } from '~/types/constants';
import type { ThemeJSON } from '~/types/entities';

/**
 * The embed player's stylesheet (decision 038): the site's theme in the chosen mode (dark
 * unless `?theme=light`): its primary colour as the accent, its surfaces, text and border,
 * all from `themePalette` (so each reaches WCAG AA on the background as on the site), and its
 * two fonts, their @font-face rules inlined with the font files served from this site's
 * build. The title is set in the heading font, the rest in the body font.
 */

export type EmbedTheme = 'light' | 'dark';

/** The embed's colours, as CSS colours, from the theme's palette in one mode. */
export function embedColours(theme: ThemeJSON, mode: EmbedTheme) {
  const p = themePalette(theme, mode);
  const hsl = (name: string) => `hsl(${p[name]})`;
  return {
    bg: hsl('background'),
    fg: hsl('foreground'),
    muted: hsl('muted-foreground'),
    accent: hsl('primary'),
    'accent-fg': hsl('primary-foreground'),
    line: hsl('border'),
  };
}

const RULES = `
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{background:var(--bg);color:var(--fg);font:14px/1.35 var(--font-body);overflow:hidden}
main{display:flex;flex-direction:column;height:100%;min-width:${EMBED_MIN_WIDTH}px}
.card{display:flex;gap:12px;height:120px;flex:none;padding:0 12px 0 0}
.cover{width:120px;height:120px;object-fit:cover;flex:none;background:var(--line)}
.body{flex:1;min-width:0;display:flex;flex-direction:column;justify-content:center;gap:5px}
.title{margin:0;font:700 15px/1.3 var(--font-heading);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.artist{margin:0;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.row{display:flex;align-items:center;gap:10px}
button,.lock{font:inherit}
.play{width:36px;height:36px;flex:none;border:0;border-radius:50%;background:var(--accent);color:var(--accent-fg);cursor:pointer;display:grid;place-items:center}
.play svg{width:16px;height:16px;fill:currentColor}
.seek{flex:1;min-width:40px;position:relative;display:flex;align-items:center}
.seek input{width:100%;margin:0;accent-color:var(--accent)}
.seek svg{display:none}
.wave{height:34px}
.wave svg{display:block;position:absolute;inset:0;width:100%;height:100%}
.wave .w0{fill:var(--muted)}
.wave .w1{fill:var(--accent)}
.wave input{position:absolute;inset:0;height:100%;opacity:0;cursor:pointer;-webkit-appearance:none;appearance:none;background:none}
.wave input::-webkit-slider-thumb{-webkit-appearance:none;appearance:none;width:1px;height:34px}
.wave input::-moz-range-thumb{width:1px;height:34px;border:0}
.wave:has(:focus-visible){outline:2px solid var(--accent);outline-offset:2px;border-radius:2px}
.time{color:var(--muted);font-variant-numeric:tabular-nums;white-space:nowrap;font-size:12px}
a{color:var(--fg)}
.site{font-size:12px;color:var(--muted)}
.lock{display:inline-block;padding:6px 10px;border:1px solid var(--line);border-radius:6px;color:var(--fg);text-decoration:none}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
ol{list-style:none;margin:0;padding:0;overflow-y:auto;border-top:1px solid var(--line);flex:1}
li button{display:flex;width:100%;gap:8px;padding:8px 12px;border:0;border-bottom:1px solid var(--line);background:none;color:var(--fg);text-align:left;cursor:pointer}
li button[aria-current=true]{font-weight:700;color:var(--accent)}
li .d{margin-left:auto;color:var(--muted)}
@media (max-height:200px){ol{display:none}}
@media (max-width:360px){.cover{width:80px;height:80px;align-self:center}.time{display:none}}
`;

/** The last stylesheets made, by theme and mode (the theme changes rarely). */
const made = new Lru<string, string>({ maxEntries: 4 });

/** The embed's whole stylesheet for this theme and mode. */
export function embedStyle(theme: ThemeJSON, mode: EmbedTheme): string {
  const key = JSON.stringify([
    theme.primary,
    theme.variant,
    theme.headerFont,
    theme.bodyFont,
    mode,
  ]);
  const cached = made.get(key);
  if (cached !== undefined) return cached;
  const colours = Object.entries(embedColours(theme, mode))
    .map(([name, value]) => `--${name}:${value};`)
    .join('');
  const vars =
    `:root{color-scheme:${mode};${colours}` +
    `--font-heading:${fontStack(theme.headerFont)};--font-body:${fontStack(theme.bodyFont)}}`;
  const css = [themeFonts(theme.headerFont, theme.bodyFont).css, vars, RULES.trim()].join('\n');
  // Two modes of the current theme, and of the one before an admin changed it.
  made.set(key, css);
  return css;
}
