import { describe, expect, it } from 'vitest';

import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it.each([
    ['/admin', '/admin'],
    ['/admin/tracks?tab=featured', '/admin/tracks?tab=featured'],
    ['//evil.example', '/'],
    ['https://evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/ok\nSet-Cookie: x=1', '/'],
    ['', '/'],
    [null, '/'],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});
