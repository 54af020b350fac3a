import { describe, expect, it, vi } from 'vitest';

import { findByIdParam, parseId } from './model-helpers.server';

describe('parseId', () => {
  it('takes a positive whole number written in digits only', () => {
    expect(parseId('7')).toBe(7);
    expect(parseId('000012')).toBe(12);
    for (const bad of [undefined, null, '', '0', '-1', '1.5', '1e3', ' 7', '7a', '9'.repeat(13)])
      expect(parseId(bad), String(bad)).toBeNull();
  });
});

describe('findByIdParam', () => {
  it('loads the record a URL id names; null for none, without a lookup for a non-id', async () => {
    const get = vi.fn(async (id: number) => (id === 3 ? { id } : null));
    expect(await findByIdParam('3', get)).toEqual({ id: 3 });
    expect(await findByIdParam('4', get)).toBeNull();
    expect(get).toHaveBeenCalledTimes(2);
    expect(await findByIdParam('abc', get)).toBeNull();
    expect(await findByIdParam(undefined, get)).toBeNull();
    expect(get).toHaveBeenCalledTimes(2);
  });
});
