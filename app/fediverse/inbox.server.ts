import crypto from 'node:crypto';

import { Accept, Delete, type Federation, Follow, isActor, Reject, Undo } from '@fedify/fedify';

import { isBlocked } from '~/models/fediverse-block.server';
import { addFollower, isFollowOf, removeFollower } from '~/models/fediverse-follower.server';
import { logger } from '~/platform/logger.server';

import { ACTOR_ID, PATHS } from './actor.server';

/**
 * What the site does with what arrives in its inboxes (decision 053). Fedify has already
 * checked the HTTP Signature (or the object's proof) and that the signer is the activity's
 * actor; mount.server.ts refused unsigned, oversized, too frequent and blocked posts before.
 *
 * - `Follow` of the site's actor: the follower is recorded and an `Accept` goes back at once
 *   (through the queue, so within seconds).
 * - `Undo(Follow)` by the same actor, or that actor's `Delete` of itself: the follow ends.
 * - Everything else (replies, likes, boosts, mentions) is acknowledged (202) and ignored:
 *   nothing remote is stored or shown (decision 053).
 */
export function configureInbox(federation: Federation<{ requestFromPeer: boolean }>): void {
  federation
    .setInboxListeners(PATHS.inbox, PATHS.sharedInbox)
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor' || target.identifier !== ACTOR_ID) return;
      if (await isBlocked(follow.actorId, follow.actorId.host)) return;
      const follower = await follow.getActor(ctx);
      if (!isActor(follower) || !follower.id || !follower.inboxId) return;
      if (follower.id.href !== follow.actorId.href) return;
      const username = follower.preferredUsername?.toString();
      await addFollower({
        actorId: follower.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
        handle: username ? `@${username}@${follower.id.host}` : null,
        name: follower.name?.toString() ?? null,
        followId: follow.id.href,
      });
      const actorUri = ctx.getActorUri(ACTOR_ID);
      await ctx.sendActivity(
        { identifier: ACTOR_ID },
        follower,
        new Accept({
          id: new URL(`#accepts/${crypto.randomUUID()}`, actorUri),
          actor: actorUri,
          to: follower.id,
          object: follow,
        }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      if (!undo.actorId) return;
      const object = await undo.getObject(ctx).catch(() => null);
      const undoesFollow =
        object instanceof Follow
          ? object.actorId?.href === undo.actorId.href
          : undo.objectId !== null && (await isFollowOf(undo.actorId.href, undo.objectId.href));
      if (undoesFollow) await removeFollower(undo.actorId.href);
    })
    .on(Delete, async (_ctx, del) => {
      // An account deleted on its server: its follow ends.
      if (del.actorId && del.objectId?.href === del.actorId.href) {
        await removeFollower(del.actorId.href);
      }
    })
    .on(Reject, () => undefined)
    .onError((_ctx, error) => {
      logger.warn({ err: error }, 'fediverse: an incoming activity failed');
    });
}
