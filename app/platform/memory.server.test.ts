import { describe, expect, it } from 'vitest';

import { cacheSizes, memoryLimitBytes } from './memory.server';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('memory limit', () => {
  it("is the container's cgroup limit when it is below the machine's memory", () => {
    const v2 = (file: string) => (file === '/sys/fs/cgroup/memory.max' ? 512 * MB : null);
    expect(memoryLimitBytes(v2, 24 * GB)).toBe(512 * MB);
    const v1 = (file: string) => (file.endsWith('memory.limit_in_bytes') ? 1 * GB : null);
    expect(memoryLimitBytes(v1, 24 * GB)).toBe(1 * GB);
  });

  it("is the machine's memory without a limit, or with a limit above it", () => {
    expect(memoryLimitBytes(() => null, 2 * GB)).toBe(2 * GB);
    expect(memoryLimitBytes(() => 64 * GB, 2 * GB)).toBe(2 * GB);
  });
});

describe('cache sizes', () => {
  it('take 1/16 of the memory, from 16 to 64 MB: half page cache, a quarter render memo', () => {
    expect(cacheSizes({ memoryBytes: 512 * MB })).toEqual({
      budgetMb: 32,
      pageCacheBytes: 16 * MB,
      renderMemoBytes: 8 * MB,
      gridfsChunkCacheBytes: 32 * MB,
    });
    expect(cacheSizes({ memoryBytes: 1 * GB }).budgetMb).toBe(64);
    expect(cacheSizes({ memoryBytes: 24 * GB }).budgetMb).toBe(64);
    expect(cacheSizes({ memoryBytes: 128 * MB }).budgetMb).toBe(16);
  });

  it('follow CACHE_MB and GRIDFS_CHUNK_CACHE_MB when they are set', () => {
    expect(cacheSizes({ cacheMb: 200, memoryBytes: 512 * MB })).toMatchObject({
      pageCacheBytes: 100 * MB,
      renderMemoBytes: 50 * MB,
      gridfsChunkCacheBytes: 200 * MB,
    });
    expect(cacheSizes({ gridfsChunkCacheMb: 0, memoryBytes: 1 * GB }).gridfsChunkCacheBytes).toBe(
      0,
    );
  });
});
