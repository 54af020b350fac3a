import type { Activity } from '@fedify/fedify';

import { claimActivityId, releaseActivityId } from '~/models/fediverse-store.server';
import { logger } from '~/platform/logger.server';
import { siteOrigin } from '~/platform/site-origin.server';

import { ACTOR_ID } from './actor.server';
import { getFederation, ownWork } from './federation.server';

export { getFederation } from './federation.server';

/**
 * Send an activity of the site's actor to all its followers (decision 053): one delivery per
 * inbox (a server's shared inbox when it has one), each a job of the durable queue, signed,
 * retried with backoff while the follower's server is down, dropped with a log line after
 * FEDIVERSE_DELIVERY_MAX_HOURS. Returns once the deliveries are queued.
 *
 * An activity id is sent once: a second call with the same `activity.id` (a retry after a
 * crash, two instances publishing the same change) does nothing and answers false.
 */
export async function sendToFollowers(activity: Activity): Promise<boolean> {
  if (activity.id && !(await claimActivityId(activity.id.href))) {
    logger.info({ activity: activity.id.href }, 'fediverse: already sent, not sent again');
    return false;
  }
  const ctx = getFederation().createContext(new URL(siteOrigin()), ownWork);
  try {
    await ctx.sendActivity({ identifier: ACTOR_ID }, 'followers', activity, {
      preferSharedInbox: true,
    });
  } catch (error) {
    // Nothing was queued (the database is away): the id may be sent again later.
    if (activity.id) await releaseActivityId(activity.id.href).catch(() => undefined);
    throw error;
  }
  return true;
}
