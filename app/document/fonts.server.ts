import fs from 'node:fs';
import path from 'node:path';

import { logger } from '~/platform/logger.server';
import { fallbackFamily, FONT_STYLESHEETS } from '~/theme/fonts';
import type { FontChoice } from '~/types/entities';

import { ARIAL_METRICS, FONT_METRICS } from './font-metrics';

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
    logger.error({ err: error, href }, 'fonts: cannot inline a stylesheet, linking it instead');
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
  const inlined = inlineStylesheets([
    ...FONT_STYLESHEETS[headerFont],
    ...FONT_STYLESHEETS[bodyFont],
  ]);
  const fallbacks = Array.from(new Set([headerFont, bodyFont])).map(fallbackFontFaces);
  return {
    ...inlined,
    css: [westernFontFaces(inlined.css), ...fallbacks].filter(Boolean).join('\n'),
  };
}

/**
 * The @fontsource rules the site needs: the Latin and Latin Extended subsets (English, and the
 * accented names of people and places), WOFF2 only (every browser since 2016). The Cyrillic,
 * Greek and Vietnamese subsets and the WOFF copies would be parsed on every page (and sent
 * twice: in the head and in the root loader's data) for text the site does not have; such
 * text still shows, in the fallback font. Two fonts' rules: 6.8 KB → about 2 KB.
 */
export function westernFontFaces(css: string): string {
  return (css.match(/@font-face\s*\{[^}]*\}/g) ?? [])
    .filter((rule) => /-latin(?:-ext)?-\d+-(?:normal|italic)(?:-\w+)?\.woff2/.test(rule))
    .map((rule) => rule.replace(/,\s*url\([^)]*\.woff\)\s*format\(["']woff["']\)/g, ''))
    .join('\n');
}

/** Arial and the fonts drawn to its metrics, as installed on most systems. */
const ARIAL_LIKE = {
  400: ['Arial', 'ArialMT', 'Helvetica', 'Liberation Sans', 'Arimo'],
  700: ['Arial Bold', 'Arial-BoldMT', 'Helvetica Bold', 'Liberation Sans Bold', 'Arimo Bold'],
} as const;

const percent = (value: number) => `${(value * 100).toFixed(2)}%`;

/**
 * `@font-face` rules for "<Font> Fallback": a local Arial-like font scaled to the web font's
 * average glyph width, with its ascent, descent and line gap, so text set in the fallback
 * while the web font loads (font-display: swap) takes nearly the same room, and the swap moves
 * nothing (Cumulative Layout Shift). The same calculation as capsize's createFontStack.
 */
export function fallbackFontFaces(font: FontChoice): string {
  const metrics = FONT_METRICS[font];
  const sizeAdjust =
    metrics.xWidthAvg / metrics.unitsPerEm / (ARIAL_METRICS.xWidthAvg / ARIAL_METRICS.unitsPerEm);
  const em = metrics.unitsPerEm * sizeAdjust;
  const overrides =
    `size-adjust:${percent(sizeAdjust)};ascent-override:${percent(metrics.ascent / em)};` +
    `descent-override:${percent(Math.abs(metrics.descent) / em)};` +
    `line-gap-override:${percent(metrics.lineGap / em)}`;
  return ([400, 700] as const)
    .map((weight) => {
      const src = ARIAL_LIKE[weight].map((name) => `local('${name}')`).join(',');
      return `@font-face{font-family:'${fallbackFamily(font)}';font-style:normal;font-weight:${weight};src:${src};${overrides}}`;
    })
    .join('\n');
}

/**
 * Built stylesheets (`/build/_assets/….css`) as one CSS text; any that cannot be read is returned
 * as a link instead. Built assets live in public/, which the server also resolves from the
 * working directory.
 */
export function inlineStylesheets(
  hrefs: string[],
  publicDir: string = path.resolve('public'),
): ThemeFonts {
  const css: string[] = [];
  const links: string[] = [];
  // An empty href names no file (CSS imports are '' where no bundler resolves them, as in tests).
  for (const href of Array.from(new Set(hrefs)).filter(Boolean)) {
    const text = readBuiltStylesheet(href, publicDir);
    if (text === null) links.push(href);
    else css.push(text);
  }
  return { css: css.join('\n'), links };
}
