import type { SiteFederation } from './federation.server';

/**
 * Placeholder owned by `fedipub` (issue 40's publishing): the mapping of tracks, posts and
 * shows to ActivityStreams objects, their dispatchers and the outbox. Their version replaces
 * this file on merge; until then these do nothing.
 */
export function configurePublishing(_federation: SiteFederation): void {}

/** A 410 Tombstone for an object the site deleted, else null (Remix answers). */
export async function answerTombstone(_request: Request): Promise<Response | null> {
  return null;
}

/** The publishing sweep (early access, failed sends), started and stopped with the app. */
export function startPublishing(): void {}
export async function stopPublishing(): Promise<void> {}
