import fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { SITE_ICON_NAMES } from '~/components/site/icon-names';

import { renderIconSprite, SPRITE_PATH } from './icon-sprite-lib';

describe('the icon sprite', () => {
  it('is committed as `npm run icons` writes it (run it after changing icon-names.ts)', async () => {
    expect(fs.readFileSync(SPRITE_PATH, 'utf8')).toBe(await renderIconSprite());
  });

  it('has a symbol for every site icon and social network, with real shapes', async () => {
    const sprite = await renderIconSprite();
    for (const name of SITE_ICON_NAMES) {
      expect(sprite).toMatch(
        new RegExp(
          `<symbol id="${name}" viewBox="0 0 24 24"><(path|circle|rect|line|polyline|polygon) `,
        ),
      );
    }
    expect(sprite).toContain('<symbol id="social-instagram" viewBox="0 0 24 24"><path d="M');
    expect(sprite).not.toContain('key=');
  });
});
