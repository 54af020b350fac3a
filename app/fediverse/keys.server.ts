import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';

import { getStoredKeyPairs, storeKeyPair } from '~/models/fediverse-store.server';

/**
 * The actor's key pairs (decision 053): an RSA one (RSASSA-PKCS1-v1_5, 2048 bits: the HTTP
 * Signatures Mastodon verifies) and an Ed25519 one (Object Integrity Proofs, FEP-8b32), made
 * once and kept in `fediverse_keys` so every instance signs with the same keys.
 * `npm run fediverse:rotate-keys` replaces them (docs/fediverse.md).
 */
export const KEY_ALGORITHMS = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const;

/** Imported pairs, by their stored JWK text: a rotation (another text) is picked up at once. */
const imported = new Map<string, Promise<CryptoKeyPair>>();

async function importPair(publicJwk: string, privateJwk: string): Promise<CryptoKeyPair> {
  const key = privateJwk;
  let pair = imported.get(key);
  if (!pair) {
    pair = (async () => ({
      publicKey: await importJwk(JSON.parse(publicJwk) as JsonWebKey, 'public'),
      privateKey: await importJwk(JSON.parse(privateJwk) as JsonWebKey, 'private'),
    }))();
    pair.catch(() => imported.delete(key));
    imported.set(key, pair);
    if (imported.size > 8) imported.delete(imported.keys().next().value as string);
  }
  return pair;
}

async function generate(algorithm: (typeof KEY_ALGORITHMS)[number], replace: boolean) {
  const pair = await generateCryptoKeyPair(algorithm);
  await storeKeyPair(
    {
      algorithm,
      publicKey: JSON.stringify(await exportJwk(pair.publicKey)),
      privateKey: JSON.stringify(await exportJwk(pair.privateKey)),
    },
    replace,
  );
}

/** The actor's pairs, RSA first (Fedify signs HTTP requests with the first RSA pair). */
export async function actorKeyPairs(): Promise<CryptoKeyPair[]> {
  let stored = await getStoredKeyPairs();
  const missing = KEY_ALGORITHMS.filter((a) => !stored.some((s) => s.algorithm === a));
  if (missing.length > 0) {
    // First use: made here; two instances starting together keep the first one stored.
    for (const algorithm of missing) await generate(algorithm, false);
    stored = await getStoredKeyPairs();
  }
  const ordered = KEY_ALGORITHMS.flatMap((a) => stored.filter((s) => s.algorithm === a));
  return Promise.all(ordered.map((s) => importPair(s.publicKey, s.privateKey)));
}

/** New pairs for every algorithm (the old ones are forgotten: remote servers refetch). */
export async function rotateKeyPairs(): Promise<void> {
  for (const algorithm of KEY_ALGORITHMS) await generate(algorithm, true);
}
