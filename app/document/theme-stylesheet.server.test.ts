import { describe, expect, it } from 'vitest';

import { DEFAULT_THEME } from '~/models/theme.server';
import { themeCss } from '~/theme/theme';

import { themeStylesheet } from './theme-stylesheet.server';

describe('themeStylesheet', () => {
  it("holds the theme's variables, under a URL that changes with the theme", () => {
    const sheet = themeStylesheet(DEFAULT_THEME);
    expect(sheet.css).toContain(themeCss(DEFAULT_THEME));
    expect(sheet.href).toBe(`/theme.css?v=${sheet.version}`);
    expect(themeStylesheet({ ...DEFAULT_THEME }).version).toBe(sheet.version);

    const recoloured = themeStylesheet({ ...DEFAULT_THEME, primary: 'hsl(200, 100%, 50%)' });
    expect(recoloured.version).not.toBe(sheet.version);
    expect(recoloured.css).toContain('--primary:200 100% 50%');
    const refonted = themeStylesheet({ ...DEFAULT_THEME, headerFont: 'Lato' });
    expect(refonted.version).not.toBe(sheet.version);
    expect(refonted.css).toContain("font-family:'Lato Fallback'");
  });
});
