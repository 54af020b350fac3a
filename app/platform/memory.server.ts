import fs from 'node:fs';
import os from 'node:os';

import { env } from './env.server';

/**
 * How much memory this instance's caches may hold, from the machine it runs on (decision 040).
 *
 * The budget is CACHE_MB when set, otherwise 1/16 of the memory the process may use (the
 * container's cgroup limit when there is one, else the machine's memory), between 16 and 64 MB:
 * 32 MB in a 512 MB container, 64 MB on a 1 GB VPS and above. It is shared out as:
 *
 * - the page cache (anonymous pages, decision 039): half;
 * - the render memo (HTML of anonymous renders): a quarter;
 * - the GridFS chunk cache (MEDIA_STORAGE=gridfs only, where media bytes are what is read most):
 *   the whole budget again, unless GRIDFS_CHUNK_CACHE_MB says.
 *
 * The read cache (model results) is bounded by its number of entries (small documents).
 */

const MB = 1024 * 1024;
const MIN_BUDGET_MB = 16;
const MAX_BUDGET_MB = 64;

/** A cgroup's memory limit in bytes, or null when the file says "max", is absent or unreadable. */
function cgroupLimit(file: string): number | null {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    const bytes = Number(text);
    // cgroup v1 writes a huge number (about 2^63) for "no limit".
    return Number.isFinite(bytes) && bytes > 0 && bytes < 2 ** 60 ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * The memory this process may use, in bytes: the smallest of the machine's memory and the
 * cgroup limits (v2 `memory.max`, v1 `memory.limit_in_bytes`) of the container it runs in.
 */
export function memoryLimitBytes(
  read: (file: string) => number | null = cgroupLimit,
  total: number = os.totalmem(),
): number {
  const limits = [
    total,
    read('/sys/fs/cgroup/memory.max'),
    read('/sys/fs/cgroup/memory/memory.limit_in_bytes'),
  ].filter((n): n is number => n !== null && n > 0);
  return Math.min(...limits);
}

export type CacheSizes = {
  /** The whole budget, MB. */
  budgetMb: number;
  pageCacheBytes: number;
  renderMemoBytes: number;
  gridfsChunkCacheBytes: number;
};

/** The caches' sizes for a budget (CACHE_MB) and a memory limit; exported for the tests. */
export function cacheSizes(
  options: { cacheMb?: number; gridfsChunkCacheMb?: number; memoryBytes: number } = {
    memoryBytes: memoryLimitBytes(),
  },
): CacheSizes {
  const budgetMb =
    options.cacheMb ??
    Math.min(MAX_BUDGET_MB, Math.max(MIN_BUDGET_MB, Math.round(options.memoryBytes / MB / 16)));
  return {
    budgetMb,
    pageCacheBytes: Math.round((budgetMb * MB) / 2),
    renderMemoBytes: Math.round((budgetMb * MB) / 4),
    gridfsChunkCacheBytes: Math.round((options.gridfsChunkCacheMb ?? budgetMb) * MB),
  };
}

let sizes: CacheSizes | undefined;

/** This process's cache sizes (computed once, from the environment and the machine). */
export function processCacheSizes(): CacheSizes {
  sizes ??= cacheSizes({
    cacheMb: env.CACHE_MB,
    gridfsChunkCacheMb: env.GRIDFS_CHUNK_CACHE_MB,
    memoryBytes: memoryLimitBytes(),
  });
  return sizes;
}
