import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';

import { pageHref, pageWindow } from '~/utils/page-href';
import { seoMeta } from '~/utils/seo/seo';

import { Pagination } from './pagination';

describe('pageHref', () => {
  it('keeps the list parameters, page 1 without ?page=1', () => {
    expect(pageHref('/music', { q: 'neon', type: null }, 1)).toBe('/music?q=neon');
    expect(pageHref('/music', { q: 'neon', type: 'mixes' }, 3)).toBe(
      '/music?q=neon&type=mixes&page=3',
    );
    expect(pageHref('/gallery', {}, 1)).toBe('/gallery');
    expect(pageHref('/shows', { upcoming: null }, 2, 'past')).toBe('/shows?past=2');
    expect(pageHref('/shows', { upcoming: 2 }, 1, 'past')).toBe('/shows?upcoming=2');
  });
});

describe('pageWindow', () => {
  const site = (page: number, pageCount: number) => pageWindow(page, pageCount, { fillGaps: true });
  const admin = (page: number, pageCount: number) => pageWindow(page, pageCount, { around: 2 });

  it("the site's: the first, the last and the current page with its neighbours", () => {
    expect(site(1, 1)).toEqual([1]);
    expect(site(1, 3)).toEqual([1, 2, 3]);
    expect(site(5, 20)).toEqual([1, null, 4, 5, 6, null, 20]);
    expect(site(3, 20)).toEqual([1, 2, 3, 4, null, 20]);
    expect(site(20, 20)).toEqual([1, null, 19, 20]);
  });

  it("the site's shows a lone left-out page instead of a gap", () => {
    expect(site(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(site(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
  });

  it("the back office's: two on each side, every gap an ellipsis", () => {
    expect(admin(1, 1)).toEqual([1]);
    expect(admin(1, 2)).toEqual([1, 2]);
    expect(admin(1, 10)).toEqual([1, 2, 3, null, 10]);
    expect(admin(5, 10)).toEqual([1, null, 3, 4, 5, 6, 7, null, 10]);
    expect(admin(4, 10)).toEqual([1, 2, 3, 4, 5, 6, null, 10]);
    expect(admin(10, 10)).toEqual([1, null, 8, 9, 10]);
  });

  it('a page past the end keeps the first and the last', () => {
    expect(admin(12, 10)).toEqual([1, null, 10]);
    expect(site(0, 3)).toEqual([1, 2, 3]);
  });
});

describe('Pagination', () => {
  const render = (page: number, pageCount: number) =>
    renderToString(
      <StaticRouter location="/music">
        <Pagination path="/music" params={{ q: 'x' }} page={page} pageCount={pageCount} />
      </StaticRouter>,
    );

  it('links Previous and Next with rel, the current page marked', () => {
    const html = render(2, 3);
    expect(html).toContain('<nav aria-label="Pagination"');
    expect(html).toMatch(/<a rel="prev"[^>]*href="\/music\?q=x">Previous/);
    expect(html).toMatch(/<a rel="next"[^>]*href="\/music\?q=x&amp;page=3">Next/);
    expect(html).toMatch(/<a aria-current="page"[^>]*href="\/music\?q=x&amp;page=2">/);
    expect(html.match(/aria-current/g)).toHaveLength(1);
  });

  it('is absent for one page; no Previous on the first, no Next on the last', () => {
    expect(render(1, 1)).toBe('');
    expect(render(1, 2)).not.toContain('rel="prev"');
    expect(render(2, 2)).not.toContain('rel="next"');
  });
});

describe('seoMeta paging', () => {
  const links = (page: number, pageCount: number) =>
    seoMeta({
      origin: 'https://example.test',
      title: 'Music',
      description: 'd',
      url: '/music',
      paging: { params: { q: 'neon', type: null }, page, pageCount },
    }).filter((t) => 'tagName' in t && t.tagName === 'link');

  it('a self canonical with the query, and the neighbours', () => {
    expect(links(1, 3)).toEqual([
      { tagName: 'link', rel: 'canonical', href: 'https://example.test/music?q=neon' },
      { tagName: 'link', rel: 'next', href: 'https://example.test/music?q=neon&page=2' },
    ]);
    expect(links(3, 3)).toEqual([
      { tagName: 'link', rel: 'canonical', href: 'https://example.test/music?q=neon&page=3' },
      { tagName: 'link', rel: 'prev', href: 'https://example.test/music?q=neon&page=2' },
    ]);
  });
});
