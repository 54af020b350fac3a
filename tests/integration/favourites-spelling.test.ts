import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

/**
 * The code says "favourites", as the site's copy does (British English); the public API's URL
 * says `/api/favorites`, as issue 16 published it, and keeps it (decision 052). So "favorite"
 * appears in app/ only as that URL, and in the names of the two route files that are that URL.
 */

const app = fileURLToPath(new URL('../../app', import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

describe('favourites, spelled one way', () => {
  it('names nothing "favorite" in app/ but the /api/favorites URL and its route files', () => {
    const strays: string[] = [];
    for (const file of sources(app)) {
      const rel = path.relative(app, file);
      // A route file's name is its URL: api+/favorites._index.ts is /api/favorites.
      const name = rel.startsWith('routes/')
        ? path.basename(rel).replace(/(^|\.)favorites(?=\.)/, '$1')
        : path.basename(rel);
      if (/favorite/i.test(name)) strays.push(rel);
      const text = fs.readFileSync(file, 'utf8').replace(/\/api\/favorites/g, '');
      for (const [i, line] of text.split('\n').entries()) {
        if (/favorite/i.test(line)) strays.push(`${rel}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(strays).toEqual([]);
  });
});
