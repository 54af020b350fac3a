import { extendFederation, startFederationQueue, stopFederationQueue } from './federation.server';
import { configurePublishing } from './objects.server';
import { startPublishing, stopPublishing } from './sweep.server';

/**
 * The fediverse at start-up and shutdown (app/platform/startup.server.ts, decision 053): the
 * federation gets what publishing registers (after the actor's own dispatchers), its queue
 * starts on this instance, then the publishing sweep; at shutdown the sweep stops, then the
 * queue (the jobs in flight finish, the rest stay queued).
 */
export function startFediverse(): void {
  extendFederation('publishing', configurePublishing);
  startFederationQueue();
  startPublishing();
}

export async function stopFediverse(): Promise<void> {
  await stopPublishing();
  await stopFederationQueue();
}
