import mongoose, { Schema } from 'mongoose';

import { defineModel } from './model-helpers.server';
import { findNumberedPage, type NumberedPage } from './paging.server';

/**
 * What the admin blocked on /admin/fediverse (decision 053): a whole domain (`kind: 'domain'`,
 * `value` a lowercase host, which also covers its subdomains) or one actor (`kind: 'actor'`,
 * `value` the actor's URI). A blocked sender's posts to the inboxes are refused (403) and the
 * block removes their follows. One document per block, unique by kind and value.
 */
export type BlockKind = 'domain' | 'actor';
export type BlockDoc = { kind: BlockKind; value: string; createdAt: Date };

const BlockSchema = new Schema<BlockDoc>(
  {
    kind: { type: String, enum: ['domain', 'actor'], required: true },
    value: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
BlockSchema.index({ kind: 1, value: 1 }, { unique: true });
BlockSchema.index({ createdAt: -1, _id: -1 });

export const FediverseBlock = defineModel<BlockDoc>(
  'FediverseBlock',
  BlockSchema,
  'fediverse_blocks',
);

/** Lowercase host of a domain block (`Example.COM.` → `example.com`); null when not a host. */
export function normaliseDomain(input: string): string | null {
  let host = input.trim().toLowerCase();
  if (/^https?:\/\//.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      return null;
    }
  }
  host = host.replace(/^@/, '').replace(/\.$/, '');
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host) &&
    host.length <= 253
    ? host
    : null;
}

export async function addBlock(kind: BlockKind, value: string): Promise<void> {
  await FediverseBlock.updateOne(
    { kind, value },
    { $setOnInsert: { kind, value, createdAt: new Date() } },
    { upsert: true },
  );
}

export async function removeBlock(kind: BlockKind, value: string): Promise<boolean> {
  const result = await FediverseBlock.deleteOne({ kind, value });
  return result.deletedCount > 0;
}

/** The host and its parent domains: `a.b.example.com` → itself, `b.example.com`, `example.com`. */
function domainsOf(host: string): string[] {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/:\d+$/, '');
  const labels = name.split('.');
  const out = [name];
  for (let i = 1; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/**
 * True when this actor (its URI) or its host is blocked: one indexed query on at most a few
 * keys (the actor, the host and its parent domains).
 */
export async function isBlocked(actorId: string | URL | null, host: string): Promise<boolean> {
  const or: { kind: BlockKind; value: string }[] = domainsOf(host).map((value) => ({
    kind: 'domain',
    value,
  }));
  if (actorId) or.push({ kind: 'actor', value: String(actorId) });
  const found = await FediverseBlock.findOne(mongoose.trusted({ $or: or }), { _id: 1 }).lean();
  return found !== null;
}

export type BlockRow = { kind: BlockKind; value: string; createdAt: string };

/** A page of the blocks, newest first. */
export async function listBlocksPage(page: number, perPage = 50): Promise<NumberedPage<BlockRow>> {
  const result = await findNumberedPage(FediverseBlock, {
    sort: { createdAt: -1, _id: -1 },
    page,
    perPage,
  });
  return {
    ...result,
    items: result.items.map((b) => ({
      kind: b.kind,
      value: b.value,
      createdAt: new Date(b.createdAt).toISOString(),
    })),
  };
}
