import { logger } from '~/platform/logger.server';

import { extendFederation, startFederationQueue, stopFederationQueue } from './federation.server';
import { ensureKeyPairs } from './keys.server';
import { configurePublishing } from './objects.server';
import { startPublishing, stopPublishing } from './sweep.server';

/**
 * The fediverse at start-up and shutdown (app/platform/startup.server.ts, decision 053): the
 * federation gets what publishing registers (after the actor's own dispatchers), its queue
 * starts on this instance, then the publishing sweep; at shutdown the sweep stops, then the
 * queue (the jobs in flight finish, the rest stay queued), and the keys being made are stored.
 */
/** The start-up's making of the actor's keys, awaited at shutdown (they are stored first). */
let makingKeys: Promise<void> = Promise.resolve();

export function startFediverse(): void {
  extendFederation('publishing', configurePublishing);
  // The actor's keys exist before anything is signed: a fresh install makes them now, in the
  // background (keys.server.ts).
  makingKeys = ensureKeyPairs().catch((error: unknown) => {
    logger.error({ err: error }, 'fediverse: the actor keys could not be made; signing makes them');
  });
  startFederationQueue();
  startPublishing();
}

export async function stopFediverse(): Promise<void> {
  await stopPublishing();
  await stopFederationQueue();
  await makingKeys;
}
