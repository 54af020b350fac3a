/**
 * `npm run icons`: write the site's icon sprite (app/components/site/sprite.svg) from the
 * names in app/components/site/icon-names.ts. Commit the result.
 */
import fs from 'node:fs';

import { renderIconSprite, SPRITE_PATH } from './icon-sprite-lib';

const sprite = await renderIconSprite();
fs.writeFileSync(SPRITE_PATH, sprite);
console.log(`${SPRITE_PATH}: ${sprite.length} bytes`);
