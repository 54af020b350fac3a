/**
 * `npm run icons`: write the site's and the admin's icon sprites (app/components/site/sprite.svg,
 * app/components/admin/sprite.svg) from the names in app/components/site/icon-names.ts, with
 * Lucide and Simple Icons installed on first use into tools/icons (scripts/tools.ts). Commit the
 * result.
 */
import fs from 'node:fs';

import { ADMIN_SPRITE_PATH, renderIconSprites, SPRITE_PATH } from './icon-sprite-lib';

const { site, admin } = await renderIconSprites();
for (const [file, sprite] of [
  [SPRITE_PATH, site],
  [ADMIN_SPRITE_PATH, admin],
] as const) {
  fs.writeFileSync(file, sprite);
  console.log(`${file}: ${sprite.length} bytes`);
}
