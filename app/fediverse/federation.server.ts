import {
  createFederation,
  Endpoints,
  type Federation,
  Image,
  Organization,
  type Recipient,
} from '@fedify/fedify';

import { countFollowers, followersForDelivery } from '~/models/fediverse-follower.server';
import { countPublished } from '~/models/fediverse-publication.server';
import { env } from '~/platform/env.server';
import { logger } from '~/platform/logger.server';
import { peekProcessSingleton, processSingleton } from '~/platform/process-state.server';
import { siteOrigin } from '~/platform/site-origin.server';

import { ACTOR_ID, actorSummary, fediverseHandle, PATHS } from './actor.server';
import { configureInbox } from './inbox.server';
import { actorKeyPairs } from './keys.server';
import { MongoKvStore } from './kv-store.server';
import { routeFedifyLogs } from './logging.server';
import { MongoMessageQueue } from './message-queue.server';

/**
 * The site as an ActivityPub actor (docs/fediverse.md, decision 053), built on Fedify 1.5:
 * its key-value store and message queue on our database (kv-store.server.ts,
 * message-queue.server.ts), the actor with its keys, WebFinger and NodeInfo, the followers
 * collection and the inbox (inbox.server.ts). What publishing registers (objects.server.ts: the
 * objects, the outbox) is added at start-up by lifecycle.server.ts (`extendFederation`), so that
 * this module, which the publishing code reaches through delivery.server.ts, does not import it
 * back. Mounted in front of Remix by mount.server.ts.
 *
 * `requestFromPeer` tells a request a remote server made (through `federation.fetch`) from the
 * site's own work (deliveries, the queue): the followers' list is given only to the latter.
 */
export type FederationData = { requestFromPeer: boolean };

export type SiteFederation = Federation<FederationData>;

type State = {
  federation: SiteFederation;
  queue: MongoMessageQueue;
  started: boolean;
  /** The extensions applied (`extendFederation`), by name. */
  extended: Set<string>;
};

declare module '~/platform/process-state.server' {
  interface ProcessStateRegistry {
    /** The federation, its queue and what extended it: one per process (dev rebuilds too). */
    federation: State;
  }
}

/** The software NodeInfo names (its version is the site's major.minor.patch). */
const SOFTWARE = { name: 'night-shore', version: { major: 1, minor: 0, patch: 0 } };

function build(): State {
  const queue = new MongoMessageQueue({
    concurrency: env.FEDIVERSE_CONCURRENCY,
    leaseMs: env.FEDIVERSE_LEASE_SECONDS * 1000,
    pollMs: 1000,
    retryMs: env.FEDIVERSE_RETRY_SECONDS * 1000,
    maxAgeMs: env.FEDIVERSE_DELIVERY_MAX_HOURS * 3_600_000,
    hostConcurrency: env.FEDIVERSE_HOST_CONCURRENCY,
    allowPrivatePeers: env.FEDIVERSE_ALLOW_PRIVATE_PEERS,
    log: (level, message, fields) => logger[level](fields ?? {}, message),
  });
  const federation = createFederation<FederationData>({
    kv: new MongoKvStore(),
    queue,
    manuallyStartQueue: true,
    origin: siteOrigin(),
    allowPrivateAddress: env.FEDIVERSE_ALLOW_PRIVATE_PEERS,
    userAgent: { software: `NightShore/1.0 (+${siteOrigin()})` },
    outboxRetryPolicy: queue.deliveryRetryPolicy,
    inboxRetryPolicy: queue.deliveryRetryPolicy,
  });

  federation
    .setActorDispatcher(PATHS.actor, async (ctx, identifier) => {
      if (identifier !== ACTOR_ID) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      const origin = siteOrigin();
      let outbox: URL | null = null;
      try {
        outbox = ctx.getOutboxUri(identifier);
      } catch {
        // No outbox dispatcher registered (publishing not configured): no outbox link.
      }
      return new Organization({
        id: ctx.getActorUri(identifier),
        preferredUsername: fediverseHandle(),
        name: env.SITE_NAME,
        summary: actorSummary(env.SITE_NAME),
        url: new URL('/', origin),
        icon: new Image({
          url: new URL('/apple-touch-icon.png', origin),
          mediaType: 'image/png',
        }),
        image: new Image({ url: new URL('/hero-1280w.jpg', origin), mediaType: 'image/jpeg' }),
        inbox: ctx.getInboxUri(identifier),
        outbox,
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        manuallyApprovesFollowers: false,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((k) => k.multikey),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === ACTOR_ID ? actorKeyPairs() : []))
    .mapHandle((_ctx, handle) => (handle.toLowerCase() === fediverseHandle() ? ACTOR_ID : null));

  federation
    .setFollowersDispatcher(PATHS.followers, async (ctx, identifier, cursor) => {
      if (identifier !== ACTOR_ID) return null;
      // Decision 053: the count is public, the list is not (a peer gets an empty page).
      if (ctx.data.requestFromPeer || cursor !== null)
        return cursor === null ? { items: [] } : null;
      // Our own deliveries: Fedify 1.5's sendActivity gathers every recipient before it
      // queues the deliveries, so the whole list is given at once (one-shot), read from the
      // database a page at a time.
      const items: Recipient[] = [];
      let next: string | null = null;
      do {
        const page = await followersForDelivery(next, 500);
        for (const f of page.items) {
          items.push({
            id: new URL(f.actorId),
            inboxId: new URL(f.inbox),
            endpoints: f.sharedInbox ? { sharedInbox: new URL(f.sharedInbox) } : null,
          });
        }
        next = page.next;
      } while (next);
      return { items };
    })
    .setCounter((_ctx, identifier) => (identifier === ACTOR_ID ? countFollowers() : null));

  federation.setNodeInfoDispatcher(PATHS.nodeInfo, async () => ({
    software: SOFTWARE,
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: {
      users: { total: 1, activeMonth: 1, activeHalfyear: 1 },
      // What the site has published to its followers (the outbox's count).
      localPosts: await countPublished(),
      localComments: 0,
    },
  }));

  configureInbox(federation);
  return { federation, queue, started: false, extended: new Set() };
}

const state = (): State => processSingleton('federation', build);

/** The site's federation (made on first use, once per process). */
export const getFederation = (): SiteFederation => state().federation;

/** Context data for the site's own work (deliveries, publishing). */
export const ownWork: FederationData = { requestFromPeer: false };

/** Apply `extend` to the federation once per process (dispatchers can be set only once). */
export function extendFederation(name: string, extend: (federation: SiteFederation) => void) {
  const s = state();
  if (s.extended.has(name)) return;
  s.extended.add(name);
  extend(s.federation);
}

/** Start handling the queue on this instance (app start-up). */
export function startFederationQueue(): void {
  const s = state();
  if (s.started) return;
  s.started = true;
  void routeFedifyLogs();
  void s.federation.startQueue(ownWork).catch((error: unknown) => {
    logger.error({ err: error }, 'fediverse queue stopped');
  });
}

/** Stop handling the queue (graceful shutdown): the jobs in flight finish first. */
export async function stopFederationQueue(): Promise<void> {
  const s = peekProcessSingleton('federation');
  if (!s?.started) return;
  s.started = false;
  await s.queue.stop();
}
