import { isFresh, type Stamp, stamp } from './data-version.server';

/**
 * A memo of whole answers that are costly to make and the same for everyone (the podcast feed,
 * the sitemap: decision 045), valid by the data version's rules (data-version.server.ts,
 * decision 039): until any write this process notes, or another instance's within the poll.
 * The stamp is taken before `make` starts, so a write during the build makes the result stale
 * at once. One build per key at a time: concurrent callers of a missing key share it (while no
 * write has happened since it started).
 * At most `maxEntries` keys are kept (least recently used out first).
 */
export class FreshMemo<T> {
  private readonly entries = new Map<string, { value: T; made: Stamp }>();
  private readonly building = new Map<string, { build: Promise<T>; made: Stamp | null }>();

  constructor(private readonly maxEntries = 16) {}

  async get(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && isFresh(hit.made)) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    if (hit) this.entries.delete(key);
    // A build under way is shared while no write has happened since it started.
    const pending = this.building.get(key);
    if (pending?.made && isFresh(pending.made)) return pending.build;
    const made = stamp();
    const build = make().then((value) => {
      if (made && isFresh(made)) this.remember(key, value, made);
      return value;
    });
    const own = { build, made };
    this.building.set(key, own);
    try {
      return await build;
    } finally {
      if (this.building.get(key) === own) this.building.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  private remember(key: string, value: T, made: Stamp): void {
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, made });
  }
}
