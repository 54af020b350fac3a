import { describe, expect, it } from 'vitest';

import {
  contentRange,
  isNotModified,
  makeEtag,
  parseRangeHeader,
  rangeStillValid,
  unsatisfiedContentRange,
} from './http-range';

describe('parseRangeHeader', () => {
  const size = 1000;
  const partial = (start: number, end: number) => ({ kind: 'partial', range: { start, end } });
  it('sends the whole file without a header', () => {
    expect(parseRangeHeader(null, size)).toEqual({ kind: 'full' });
    expect(parseRangeHeader('', size)).toEqual({ kind: 'full' });
  });
  it('reads a closed range', () => {
    expect(parseRangeHeader('bytes=0-99', size)).toEqual(partial(0, 99));
    expect(parseRangeHeader('bytes=500-500', size)).toEqual(partial(500, 500));
  });
  it('reads an open-ended range', () => {
    expect(parseRangeHeader('bytes=900-', size)).toEqual(partial(900, 999));
  });
  it('reads a suffix range', () => {
    expect(parseRangeHeader('bytes=-100', size)).toEqual(partial(900, 999));
    expect(parseRangeHeader('bytes=-5000', size)).toEqual(partial(0, 999));
  });
  it('cuts an end past the file', () => {
    expect(parseRangeHeader('bytes=990-2000', size)).toEqual(partial(990, 999));
  });
  it('is unsatisfiable past the end', () => {
    expect(parseRangeHeader('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRangeHeader('bytes=5000-6000', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRangeHeader('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRangeHeader('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });
  it('ignores malformed, foreign-unit and multiple ranges', () => {
    for (const h of ['bytes=abc', 'items=0-5', 'bytes=5-1', 'bytes=-', 'bytes=0-1,5-9', 'bytes']) {
      expect(parseRangeHeader(h, size)).toEqual({ kind: 'full' });
    }
  });
  it('tolerates case and spaces', () => {
    expect(parseRangeHeader('Bytes = 1 - 2', size)).toEqual(partial(1, 2));
  });
});

describe('headers', () => {
  it('formats Content-Range', () => {
    expect(contentRange({ start: 0, end: 99 }, 1000)).toBe('bytes 0-99/1000');
    expect(unsatisfiedContentRange(1000)).toBe('bytes */1000');
  });
  it('makes a strong ETag from size and mtime', () => {
    expect(makeEtag(255, 4096.7)).toBe('"ff-1000"');
  });
});

describe('conditional requests', () => {
  const etag = makeEtag(10, 1_700_000_000_000);
  const mtime = 1_700_000_000_500;
  const h = (init: Record<string, string>) => new Headers(init);

  it('If-None-Match matches the ETag (weakly), a list or *', () => {
    expect(isNotModified(h({ 'If-None-Match': etag }), etag, mtime)).toBe(true);
    expect(isNotModified(h({ 'If-None-Match': `W/${etag}` }), etag, mtime)).toBe(true);
    expect(isNotModified(h({ 'If-None-Match': `"x", ${etag}` }), etag, mtime)).toBe(true);
    expect(isNotModified(h({ 'If-None-Match': '*' }), etag, mtime)).toBe(true);
    expect(isNotModified(h({ 'If-None-Match': '"other"' }), etag, mtime)).toBe(false);
  });
  it('If-Modified-Since compares seconds, and yields to If-None-Match', () => {
    const lm = new Date(mtime).toUTCString();
    expect(isNotModified(h({ 'If-Modified-Since': lm }), etag, mtime)).toBe(true);
    const before = new Date(mtime - 5000).toUTCString();
    expect(isNotModified(h({ 'If-Modified-Since': before }), etag, mtime)).toBe(false);
    expect(
      isNotModified(h({ 'If-Modified-Since': lm, 'If-None-Match': '"other"' }), etag, mtime),
    ).toBe(false);
    expect(isNotModified(h({ 'If-Modified-Since': 'garbage' }), etag, mtime)).toBe(false);
    expect(isNotModified(h({}), etag, mtime)).toBe(false);
  });
  it('If-Range keeps the range only while the validator matches', () => {
    expect(rangeStillValid(h({}), etag, mtime)).toBe(true);
    expect(rangeStillValid(h({ 'If-Range': etag }), etag, mtime)).toBe(true);
    expect(rangeStillValid(h({ 'If-Range': '"old"' }), etag, mtime)).toBe(false);
    expect(rangeStillValid(h({ 'If-Range': `W/${etag}` }), etag, mtime)).toBe(false);
    expect(rangeStillValid(h({ 'If-Range': new Date(mtime).toUTCString() }), etag, mtime)).toBe(
      true,
    );
    expect(rangeStillValid(h({ 'If-Range': new Date(0).toUTCString() }), etag, mtime)).toBe(false);
  });
});
