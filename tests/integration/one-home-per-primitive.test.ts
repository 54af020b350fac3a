import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

/**
 * One home per primitive (decision 049): the site's code signs in one module and escapes JSON
 * for a `<script>` in one function, escapes text for a regular expression in one function, and
 * `app/utils` stays small. Tests may mint tokens the old
 * way (they are the fixtures that prove old tokens still verify), so test files are not read.
 */
const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sources(rel));
    } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      out.push(rel);
    }
  }
  return out;
}

const files = ['app', 'server', 'scripts'].flatMap(sources);
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const filesMatching = (pattern: RegExp) => files.filter((file) => pattern.test(read(file)));

describe('one home per primitive', () => {
  it('reads the tree', () => {
    expect(files).toContain('app/platform/signing.server.ts');
    expect(files.length).toBeGreaterThan(300);
  });

  it('only platform/signing makes an HMAC or compares a mac', () => {
    expect(filesMatching(/\bcreateHmac\b/)).toEqual(['app/platform/signing.server.ts']);
    // The other constant-time compare is the password hash's (scrypt), not a mac.
    expect(filesMatching(/\btimingSafeEqual\b/).sort()).toEqual([
      'app/models/user.server.ts',
      'app/platform/signing.server.ts',
    ]);
  });

  it('only utils/html escapes JSON for a <script> element', () => {
    // `\u003c` written into a string: what a script-safe JSON escaper replaces `<` with.
    expect(filesMatching(/\\\\u003c/)).toEqual(['app/utils/html.ts']);
    expect(filesMatching(/JSON\.stringify\([^)]*\)\s*\.replace\(/)).toEqual(['app/utils/html.ts']);
  });

  it('one clock formatter and parser (utils/media-time)', () => {
    // The shapes the four formatters and two parsers had: `${h}:${pad(m)}:…` and a split on ':'.
    expect(filesMatching(/\$\{h\}:\$\{/)).toEqual(['app/utils/media-time.ts']);
    expect(filesMatching(/\.split\(':'\)/)).toEqual(['app/utils/media-time.ts']);
  });

  it('only utils/html escapes text for HTML (and utils/seo/feeds for XML)', () => {
    expect(filesMatching(/'&amp;'/).sort()).toEqual([
      'app/utils/html.ts',
      'app/utils/seo/feeds.ts',
    ]);
  });

  it('only utils/regexp escapes text for a regular expression', () => {
    // The replacement every such escaper writes: the match behind a backslash.
    expect(filesMatching(/'\\\\\$&'/)).toEqual(['app/utils/regexp.ts']);
  });

  it('app/utils holds at most 20 modules (tests aside)', () => {
    const utils = files.filter((file) => file.startsWith('app/utils/'));
    expect(utils.length, utils.join('\n')).toBeLessThanOrEqual(20);
  });
});
