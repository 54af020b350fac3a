import { claimDuePublication, duePublications } from '~/models/fediverse-publication.server';
import { logger } from '~/platform/logger.server';

import { loadItem } from './items.server';
import { deliver, publishItem, RESEND_MS } from './publication.server';

/**
 * The publishing sweep (decision 054): every instance looks once a minute for ledger entries
 * that are due (`dueAt` passed) and publishes them: a members-only item on its early-access day
 * (due at midnight, site time: it goes out within a minute or so, well inside the ten minutes
 * issue 40 allows), a public track whose stream became ready, a send that was recorded but not
 * queued (a crash, the database away). What is due lives in the database, so a restart loses
 * nothing (the first sweep runs at start), and each entry is claimed (its `dueAt` moved on by
 * a compare-and-set) before it is worked on, so two instances never both take it.
 */
export const SWEEP_MS = 60_000;
const BATCH = 50;

/** One pass: every entry due by `now` (up to a batch), each claimed by this instance first. */
export async function sweepPublications(now = new Date()): Promise<number> {
  let done = 0;
  for (const entry of await duePublications(now, BATCH)) {
    const claimed = await claimDuePublication(entry.key, entry.seq, now, RESEND_MS);
    if (!claimed) continue;
    try {
      if (claimed.unsent)
        await deliver(claimed, await loadItem(claimed.kind, claimed.itemId, now), now);
    } catch (error) {
      logger.error({ err: error, publication: claimed.key }, 'fediverse: a resend failed');
      continue;
    }
    await publishItem(claimed.kind, claimed.itemId, now);
    done += 1;
  }
  return done;
}

type SweepState = { timer: NodeJS.Timeout | null; running: Promise<unknown> | null };
const sweepState: SweepState = { timer: null, running: null };

function tick(): void {
  if (sweepState.running) return;
  sweepState.running = sweepPublications()
    .catch((error: unknown) =>
      logger.error({ err: error }, 'fediverse: the publishing sweep failed'),
    )
    .finally(() => {
      sweepState.running = null;
    });
}

/** Start the sweep on this instance (app start-up): once now, then every SWEEP_MS. */
export function startPublishing(): void {
  if (sweepState.timer) return;
  sweepState.timer = setInterval(tick, SWEEP_MS);
  sweepState.timer.unref();
  tick();
}

/** Stop sweeping; a pass in flight finishes first. */
export async function stopPublishing(): Promise<void> {
  if (sweepState.timer) clearInterval(sweepState.timer);
  sweepState.timer = null;
  await sweepState.running;
}
