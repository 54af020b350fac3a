import { describe, expect, it } from 'vitest';

import { siteOrigin } from '~/platform/site-origin.server';

import { contentSecurityPolicy } from './security-headers.server';

const frameSrc = (path: string) =>
  /(?:^|; )frame-src ([^;]+)/.exec(contentSecurityPolicy('n0nce', path))?.[1];

describe('contentSecurityPolicy: frames (decision 038)', () => {
  it('refuses every frame on the pages that do not preview the embed', () => {
    for (const path of ['/', '/music', '/music/', '/about', '/music/12/card.jpg', '/admin/tracks'])
      expect(frameSrc(path), path).toBe("'none'");
  });

  it("lets a track page and its share dialog frame this site's /embed/ only", () => {
    for (const path of ['/music/12', '/music/12/', '/music/12/share'])
      expect(frameSrc(path), path).toBe(`${siteOrigin()}/embed/`);
  });

  it('never lets anyone frame the pages themselves', () => {
    expect(contentSecurityPolicy('n0nce', '/music/12')).toContain("frame-ancestors 'none'");
  });
});
