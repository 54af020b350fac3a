import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

/**
 * Every relative link in the README and in docs/ points at something that exists: a file or a
 * folder of the repository, and, for `file.md#anchor` or `#anchor`, a heading of that file
 * (GitHub's anchors). Links to other sites, `mailto:` and links inside code are not checked.
 */

const ROOT = process.cwd();

/** Written on other branches of the same session (issue 39); checked once they exist. */
const WRITTEN_ELSEWHERE = new Set(['docs/caching.md', 'docs/fediverse.md']);

function markdownFiles(): string[] {
  const found = ['README.md', 'embedded-mongo/README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) found.push(rel);
    }
  };
  walk('docs');
  return found.sort();
}

/** The text without fenced code blocks, where a `#` line is no heading and `[x](y)` no link. */
const withoutFences = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** The text without code blocks and inline code. */
const withoutCode = (text: string) => withoutFences(text).replace(/`[^`\n]*`/g, '');

/** Inline links `[text](target "title")` and reference definitions `[id]: target`. */
function linkTargets(text: string): string[] {
  const prose = withoutCode(text);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] ?? '',
  );
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)].map(
    (m) => m[1] ?? '',
  );
  return [...inline, ...references];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = withoutFences(fs.readFileSync(path.join(ROOT, file), 'utf8'));
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingAnchor(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const isExternal = (target: string) =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
    if (isExternal(target)) continue;
    const [rawPath = '', anchor] = target.split('#');
    const linked = rawPath
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)))
      : file;
    if (WRITTEN_ELSEWHERE.has(linked) && !fs.existsSync(path.join(ROOT, linked))) continue;
    if (linked.startsWith('..') || !fs.existsSync(path.join(ROOT, linked))) {
      broken.push(`${target} (no ${linked})`);
      continue;
    }
    if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor.toLowerCase())) {
      broken.push(`${target} (no heading #${anchor} in ${linked})`);
    }
  }
  return broken;
}

describe('links in the README and docs/', () => {
  it('finds links, skips code, makes GitHub anchors', () => {
    expect(linkTargets('See [a](docs/a.md) and `[b](c.md)`.\n```\n[d](e.md)\n```\n')).toEqual([
      'docs/a.md',
    ]);
    expect(linkTargets('[x]: ../y.md\n[z](w.md "t")')).toEqual(['w.md', '../y.md']);
    expect(headingAnchor('`npm run bench:catalogue`: the cost of a page')).toBe(
      'npm-run-benchcatalogue-the-cost-of-a-page',
    );
    expect(headingAnchor('Findings, 2026-11-27 (the Range bar)')).toBe(
      'findings-2026-11-27-the-range-bar',
    );
  });

  for (const file of markdownFiles()) {
    it(`every relative link of ${file} resolves`, () => {
      expect(brokenLinks(file)).toEqual([]);
    });
  }
});
