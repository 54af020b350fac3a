import { describe, expect, it } from 'vitest';

import { slugFromTitle } from '~/services/blog-save.server';

import { blogListUrl, keepSearch, tracksListUrl } from './admin-urls';

describe('admin list urls', () => {
  it('keep only known tabs', () => {
    expect(tracksListUrl('http://x/admin/tracks/new?tab=featured')).toBe(
      '/admin/tracks?tab=featured',
    );
    expect(tracksListUrl('http://x/admin/tracks/new?tab=evil')).toBe('/admin/tracks');
    expect(blogListUrl('/admin/blog/3/edit?category=EVENTS')).toBe('/admin/blog?category=EVENTS');
    expect(blogListUrl('/admin/blog/3/edit?category=//evil')).toBe('/admin/blog');
    expect(keepSearch('/admin/tracks?tab=featured')).toBe('?tab=featured');
    expect(keepSearch('/admin/tracks')).toBe('');
  });
});

describe('slugFromTitle (server fallback when the slug is left empty)', () => {
  it('gives a valid slug', () => {
    expect(slugFromTitle('  Live at the Stone Pony!  ')).toBe('live-at-the-stone-pony');
    expect(slugFromTitle('A - B _ C')).toBe('a-b-c');
  });
});
