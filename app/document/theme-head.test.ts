import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { DEFAULT_THEME } from '~/models/theme.server';
import { FONT_STYLESHEETS } from '~/theme/fonts';
import { themeCss } from '~/theme/theme';

import { inlineStylesheets } from './fonts.server';
import { DEFAULT_THEME_HEAD } from './theme-head';

describe('theme head', () => {
  it('the error page default matches the default theme', () => {
    expect(DEFAULT_THEME_HEAD.appearance).toBe(DEFAULT_THEME.appearance);
    expect(DEFAULT_THEME_HEAD.css).toBe(themeCss(DEFAULT_THEME));
    expect(DEFAULT_THEME_HEAD.stylesheets).toEqual([
      ...FONT_STYLESHEETS[DEFAULT_THEME.headerFont],
      ...FONT_STYLESHEETS[DEFAULT_THEME.bodyFont],
    ]);
  });

  it('inlines the built stylesheets it can read, without comments, and links the others', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fonts-'));
    fs.mkdirSync(path.join(dir, 'build/_assets'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'build/_assets/a.css'),
      "/* a */\n@font-face{font-family:A;src:url(/build/_assets/a.woff2) format('woff2')}\n",
    );
    const fonts = inlineStylesheets(
      ['/build/_assets/a.css', '/build/_assets/missing.css', '/build/_assets/a.css'],
      dir,
    );
    expect(fonts.css).toBe(
      "@font-face{font-family:A;src:url(/build/_assets/a.woff2) format('woff2')}",
    );
    expect(fonts.links).toEqual(['/build/_assets/missing.css']);
    // An empty href is no stylesheet: nothing to read, nothing to link.
    expect(inlineStylesheets([''], dir)).toEqual({ css: '', links: [] });
    // A path cannot climb out of the public folder.
    expect(inlineStylesheets(['/../package.json'], dir).links).toEqual(['/../package.json']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
