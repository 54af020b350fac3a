// TTL indexes: documents whose indexed date is older than expireAfterSeconds are deleted.
import type { Op, Store } from './engine';
import { pathValues } from './values';

/** Deletes expired documents now; returns the journal ops (already handed to `commit`). */
export function ttlSweep(
  store: Store,
  commit: (ops: Op[]) => Promise<void>,
  now = Date.now(),
): Op[] {
  const ops: Op[] = [];
  for (const colls of store.dbs.values()) {
    for (const coll of colls.values()) {
      for (const ix of coll.indexes) {
        const ttl = ix.spec.expireAfterSeconds;
        if (typeof ttl !== 'number' || ix.fields.length !== 1) continue;
        const field = ix.fields[0][0];
        for (const [id, rec] of [...coll.records]) {
          const dates = pathValues(rec.doc, field).filter((v): v is Date => v instanceof Date);
          if (!dates.length) continue;
          const earliest = Math.min(...dates.map((d) => d.getTime()));
          if (earliest + ttl * 1000 <= now) {
            coll.remove(id);
            ops.push({ k: 'd', db: coll.db, c: coll.name, id: rec.doc._id });
          }
        }
      }
    }
  }
  if (ops.length)
    commit(ops).catch((e) => console.error('embedded-mongo: TTL journal write failed', e));
  return ops;
}
