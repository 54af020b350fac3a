import { describe, expect, it } from 'vitest';

import { derivativeUrl, smallestImageUrl } from './image-url';

describe('smallestImageUrl', () => {
  const info = (widths: number[], webpWidths: number[]) => ({
    src: '/uploads/images/neon.jpg',
    width: 1600,
    height: 1600,
    widths,
    webpWidths,
  });
  it('the smallest WebP derivative, else the smallest in the original format, else the image', () => {
    const src = '/uploads/images/neon.jpg';
    expect(smallestImageUrl(src, info([320, 640], [320, 640, 1600]))).toBe(
      '/uploads/images/neon-320w.webp',
    );
    expect(smallestImageUrl(src, info([640], []))).toBe('/uploads/images/neon-640w.jpg');
    expect(smallestImageUrl(src, info([], []))).toBe(src);
    expect(smallestImageUrl(src, undefined)).toBe(src);
    expect(derivativeUrl('/uploads/images/a.b.jpg', 640)).toBe('/uploads/images/a.b-640w.jpg');
  });
});
