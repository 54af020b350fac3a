import {
  addBlock,
  type BlockKind,
  normaliseDomain,
  removeBlock,
} from '~/models/fediverse-block.server';
import { removeFollower, removeFollowersOfHost } from '~/models/fediverse-follower.server';

/**
 * The admin's blocks (/admin/fediverse, decision 053). A block refuses the domain's (or the
 * actor's) posts to the inboxes from now on (mount.server.ts answers 403) and ends their
 * follows at once: nothing more is delivered to them. Fedify's cached copies of their
 * documents are left to expire.
 */
export async function blockDomain(input: string): Promise<{ domain: string; removed: number }> {
  const domain = normaliseDomain(input);
  if (!domain) throw new Error('Enter a domain such as mastodon.example');
  await addBlock('domain', domain);
  return { domain, removed: await removeFollowersOfHost(domain) };
}

export async function blockActor(actorId: string): Promise<{ removed: boolean }> {
  const actor = new URL(actorId).href;
  await addBlock('actor', actor);
  return { removed: await removeFollower(actor) };
}

export const unblock = (kind: BlockKind, value: string) => removeBlock(kind, value);
