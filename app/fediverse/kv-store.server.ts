import type { KvKey, KvStore, KvStoreSetOptions } from '@fedify/fedify';

import { kvDelete, kvGet, kvSet } from '~/models/fediverse-store.server';

/**
 * Fedify's key-value store on our database (collection `fediverse_kv`, decision 053): what it
 * caches (remote actors' documents and keys) and remembers (activities already processed) is
 * shared by every instance and survives a restart. A key is its parts joined as JSON (no
 * separator can collide); a value is kept as JSON text.
 */
export class MongoKvStore implements KvStore {
  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const text = await kvGet(JSON.stringify(key));
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const ttlMs = options?.ttl?.total({ unit: 'millisecond' });
    await kvSet(
      JSON.stringify(key),
      JSON.stringify(value),
      ttlMs === undefined ? undefined : new Date(Date.now() + ttlMs),
    );
  }

  async delete(key: KvKey): Promise<void> {
    await kvDelete(JSON.stringify(key));
  }
}
