import { describe, expect, it } from 'vitest';

import { siteOrigin } from '~/platform/site-origin.server';

import { contentSecurityPolicy } from './security-headers.server';

const frameSrc = () => /(?:^|; )frame-src ([^;]+)/.exec(contentSecurityPolicy('n0nce'))?.[1];

describe('contentSecurityPolicy: frames (decision 038)', () => {
  it("lets every page frame this site's /embed/ only (the share dialog's preview)", () => {
    expect(frameSrc()).toBe(`${siteOrigin()}/embed/`);
  });

  it('never lets anyone frame the pages themselves', () => {
    expect(contentSecurityPolicy('n0nce')).toContain("frame-ancestors 'none'");
  });
});
