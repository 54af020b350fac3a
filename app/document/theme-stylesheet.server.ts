import { createHash } from 'node:crypto';

import { themeFonts } from '~/document/fonts.server';
import { themeCss } from '~/theme/theme';
import type { ThemeJSON } from '~/types/entities';

export const THEME_STYLESHEET_PATH = '/theme.css';

export type ThemeStylesheet = {
  /** The theme's @font-face rules and CSS custom properties, one stylesheet. */
  css: string;
  /** Its content hash: `/theme.css?v=<version>` may be cached for a year. */
  version: string;
  /** `THEME_STYLESHEET_PATH` with the version. */
  href: string;
  /** Font stylesheets that could not be inlined in it (linked beside it). */
  fontLinks: string[];
};

/** The last theme's stylesheet: the theme changes rarely, every page asks for its href. */
let last: { key: string; sheet: ThemeStylesheet } | null = null;

/**
 * The theme as one stylesheet (issue 19): the chosen fonts' @font-face rules and the theme's
 * colour and font variables. Pages link it by a versioned URL instead of writing it into every
 * page's head and again into the root loader's data (3.8 KB twice per page before); the browser
 * keeps it for a year and fetches a new one only when an admin changes the theme.
 */
export function themeStylesheet(theme: ThemeJSON): ThemeStylesheet {
  const vars = themeCss(theme);
  const key = `${theme.headerFont}\n${theme.bodyFont}\n${vars}`;
  if (last?.key === key) return last.sheet;
  const fonts = themeFonts(theme.headerFont, theme.bodyFont);
  const css = [fonts.css, vars].filter(Boolean).join('\n');
  const version = createHash('sha256').update(css).digest('base64url').slice(0, 12);
  const sheet: ThemeStylesheet = {
    css,
    version,
    href: `${THEME_STYLESHEET_PATH}?v=${version}`,
    fontLinks: fonts.links,
  };
  last = { key, sheet };
  return sheet;
}
