import {
  dropWaitingPublication,
  getPublication,
  insertPublication,
  type PublicationChange,
  type PublicationDoc,
  type PublicationKind,
  publicationsByPath,
  type PublicationVerb,
  transitionPublication,
} from '~/models/fediverse-publication.server';
import { logger } from '~/platform/logger.server';
import { siteOrigin } from '~/platform/site-origin.server';

import { sendToFollowers } from './delivery.server';
import { activityIdOf, addressing, type ItemState, loadItem } from './items.server';
import { activityOf, digestOf, objectOf, type ObjectSpec, tombstoneOf } from './render.server';

export { STREAM_WAIT_MS } from './items.server';

/**
 * Publishing (decision 054): after every save or delete of a track, post or show, and from the
 * sweep, `publishItem(kind, id)` compares the item with its ledger entry
 * (models/fediverse-publication.server.ts) and sends what is missing: `Create` for an item that
 * became public, `Update` when its rendering changed, `Delete` when it was deleted or is no
 * longer public. The entry is moved first (compare-and-set), then the activity goes to
 * fedicore's delivery queue (`sendToFollowers`, which sends an activity id once): of two
 * instances publishing the same change, one sends.
 *
 * Never throws: a failure is logged and left due, and the sweep tries again.
 */

/** A send recorded but not yet queued is looked at again after this (a crash, the DB away). */
export const RESEND_MS = 2 * 60_000;
export type Decision =
  | { action: 'none' }
  | { action: 'drop' }
  | { action: 'wait'; due: Date | null }
  | { action: 'send'; verb: PublicationVerb };

/** What to do for an item (null: deleted) given its entry (null: never recorded). Pure. */
export function decide(entry: PublicationDoc | null, item: ItemState | null): Decision {
  const state = entry?.state ?? null;
  if (!item) {
    if (state === 'published') return { action: 'send', verb: 'Delete' };
    return state === null ? { action: 'none' } : { action: 'drop' };
  }
  if (item.hidden) {
    if (state === 'published') return { action: 'send', verb: 'Delete' };
    return { action: 'wait', due: item.due };
  }
  // Not ready yet (a stream being made): nothing changes until it is.
  if (!item.ready || !item.spec) return { action: 'wait', due: item.due };
  if (state === 'published') {
    if (entry?.digest === digestOf(item.spec)) return { action: 'wait', due: null };
    // A Create that never reached the queue goes out as the Create, with the new rendering.
    return {
      action: 'send',
      verb: entry?.unsent && entry.lastVerb === 'Create' ? 'Create' : 'Update',
    };
  }
  if (!item.announce && state !== 'withdrawn') return { action: 'none' };
  return { action: 'send', verb: 'Create' };
}

/** The id of the object a new generation is published under (unique among every id sent). */
async function newObjectId(key: string, path: string, generation: number): Promise<string> {
  const others = (await publicationsByPath(path)).filter((p) => p.key !== key);
  if (generation === 1 && others.length === 0) return path;
  return `${path}#v${generation}-${key.replace(':', '')}`;
}

/** The activity an entry records, built from the item as it is now. */
export function activityOfEntry(entry: PublicationDoc, spec: ObjectSpec | null, now: Date) {
  const origin = siteOrigin();
  const address = addressing(origin);
  const id = new URL(entry.objectId ?? '/', origin);
  const verb = entry.lastVerb ?? 'Create';
  if (verb !== 'Delete' && !spec) return null;
  const object =
    verb === 'Delete' || !spec
      ? tombstoneOf(id, entry.withdrawnAt ?? now)
      : objectOf(spec, {
          ...address,
          id,
          published: entry.publishedAt ?? now,
          updated: verb === 'Update' ? entry.updatedAt : null,
        });
  const activityId = activityIdOf(entry, verb, entry.seq, origin);
  return activityOf(verb, { ...address, id: activityId, object, at: now });
}

/** Hand the entry's activity to the delivery queue, then mark it sent. */
export async function deliver(entry: PublicationDoc, item: ItemState | null, now: Date) {
  const activity = activityOfEntry(entry, item?.spec ?? null, now);
  if (activity) await sendToFollowers(activity);
  await transitionPublication(
    entry.key,
    entry.seq,
    { unsent: false, dueAt: item?.due ?? null },
    false,
  );
  logger.info(
    {
      publication: entry.key,
      verb: entry.lastVerb,
      object: entry.objectId,
      sent: Boolean(activity),
    },
    'fediverse: activity queued for the followers',
  );
}

async function record(
  entry: PublicationDoc | null,
  kind: PublicationKind,
  id: number,
  change: PublicationChange,
  bump: boolean,
): Promise<PublicationDoc | null> {
  if (!entry) return insertPublication(kind, id, change);
  return transitionPublication(entry.key, entry.seq, change, bump);
}

function changeFor(
  verb: PublicationVerb,
  entry: PublicationDoc | null,
  item: ItemState | null,
  objectId: string | null,
  now: Date,
): PublicationChange {
  const resend = new Date(now.getTime() + RESEND_MS);
  if (verb === 'Delete') {
    return {
      state: 'withdrawn',
      lastVerb: 'Delete',
      withdrawnAt: now,
      unsent: true,
      dueAt: resend,
    };
  }
  const digest = item?.spec ? digestOf(item.spec) : null;
  if (verb === 'Update') return { digest, lastVerb: 'Update', unsent: true, dueAt: resend };
  const fresh = entry?.state !== 'published';
  return {
    state: 'published',
    digest,
    lastVerb: 'Create',
    objectType: item?.spec?.type ?? null,
    unsent: true,
    dueAt: resend,
    ...(fresh
      ? {
          objectId,
          generation: (entry?.generation ?? 0) + 1,
          createSeq: (entry?.seq ?? 0) + 1,
          publishedAt: now,
          withdrawnAt: null,
          addPath: item?.path,
        }
      : {}),
  };
}

/** One look at an item; false when another instance moved its entry meanwhile (look again). */
async function publishOnce(kind: PublicationKind, id: number, now: Date): Promise<boolean> {
  const entry = await getPublication(kind, id);
  const item = await loadItem(kind, id, now);
  const decision = decide(entry, item);
  if (decision.action === 'none') return true;
  if (decision.action === 'drop') {
    if (entry?.state === 'waiting') await dropWaitingPublication(entry.key, entry.seq);
    else if (entry && entry.dueAt)
      await transitionPublication(entry.key, entry.seq, { dueAt: null }, false);
    return true;
  }
  if (decision.action === 'wait') {
    if (!entry && !decision.due) return true;
    if (
      entry &&
      !entry.unsent &&
      (entry.dueAt?.getTime() ?? null) === (decision.due?.getTime() ?? null)
    )
      return true;
    if (entry?.unsent) return true; // the pending send's own due time stands
    return (await record(entry, kind, id, { dueAt: decision.due }, false)) !== null;
  }
  const { verb } = decision;
  const fresh = verb === 'Create' && entry?.state !== 'published';
  const generation = (entry?.generation ?? 0) + 1;
  const objectId =
    fresh && item
      ? await newObjectId(`${kind}:${id}`, item.path, generation)
      : (entry?.objectId ?? null);
  const moved = await record(entry, kind, id, changeFor(verb, entry, item, objectId, now), true);
  if (!moved) return false;
  await deliver(moved, item, now);
  return true;
}

/**
 * Bring the fediverse up to date with one item. Called after it was saved or deleted (the
 * admin forms and API, through the services) and by the sweep; never throws.
 */
export async function publishItem(kind: PublicationKind, id: number, now = new Date()) {
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      if (await publishOnce(kind, id, now)) return;
    }
    logger.warn(
      { publication: `${kind}:${id}` },
      'fediverse: publication kept changing; left to the sweep',
    );
  } catch (error) {
    logger.error(
      { err: error, publication: `${kind}:${id}` },
      'fediverse: publishing failed; the sweep tries again',
    );
  }
}
