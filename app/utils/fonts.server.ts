import fs from 'node:fs';
import path from 'node:path';
import type { FontChoice } from '~/types/entities';
import { FONT_STYLESHEETS } from './fonts';

/** The built @fontsource stylesheets, read once: `null` when a file cannot be read. */
const builtCss = new Map<string, string | null>();

function readBuiltStylesheet(href: string, publicDir: string): string | null {
  const file = path.join(publicDir, path.posix.normalize(`/${href}`));
  const cached = builtCss.get(file);
  if (cached !== undefined) return cached;
  let css: string | null = null;
  try {
    css = fs
      .readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim();
  } catch (error) {
    console.error(`[fonts] cannot inline ${href}, linking it instead:`, error);
  }
  builtCss.set(file, css);
  return css;
}

export type ThemeFonts = {
  /** The @font-face rules of the chosen fonts, for a <style> in the head. */
  css: string;
  /** Stylesheets that could not be inlined (linked as before). */
  links: string[];
};

/**
 * The theme's two fonts for the document head: their @font-face rules inlined (no
 * render-blocking font stylesheets on the first visit), the font files still served from the
 * build (no third-party host). Only the chosen fonts are declared.
 */
export function themeFonts(headerFont: FontChoice, bodyFont: FontChoice): ThemeFonts {
  return inlineStylesheets([...FONT_STYLESHEETS[headerFont], ...FONT_STYLESHEETS[bodyFont]]);
}

/**
 * Built stylesheets (`/build/_assets/….css`) as one CSS text; any that cannot be read is returned
 * as a link instead. Built assets live in public/, which remix-serve also resolves from the
 * working directory.
 */
export function inlineStylesheets(
  hrefs: string[],
  publicDir: string = path.resolve('public'),
): ThemeFonts {
  const css: string[] = [];
  const links: string[] = [];
  for (const href of Array.from(new Set(hrefs))) {
    const text = readBuiltStylesheet(href, publicDir);
    if (text === null) links.push(href);
    else css.push(text);
  }
  return { css: css.join('\n'), links };
}
