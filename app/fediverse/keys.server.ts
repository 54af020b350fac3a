import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';

import { getStoredKeyPairs, storeKeyPair } from '~/models/fediverse-store.server';

/**
 * The actor's key pairs (decision 053): an RSA one (RSASSA-PKCS1-v1_5, 2048 bits: the HTTP
 * Signatures Mastodon verifies, the size Mastodon gives its own actors) and an Ed25519 one
 * (Object Integrity Proofs, FEP-8b32), made once and kept in `fediverse_keys` so every instance
 * signs with the same keys. `npm run fediverse:rotate-keys` replaces them (docs/fediverse.md).
 *
 * They are made at start-up (`ensureKeyPairs`, from lifecycle.server.ts), not by the first
 * publication: Fedify's own helper makes 4,096-bit RSA keys, whose prime search took from 7 s to
 * minutes on a busy 2-core machine, inside the admin's save that published first (two saves at
 * once on a fresh server never answered). Ours is 2,048 bits (about a tenth of the work), and
 * one generation runs at a time in a process.
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

const RSA_KEY: RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([0x01, 0x00, 0x01]),
  hash: 'SHA-256',
};

async function generate(algorithm: (typeof KEY_ALGORITHMS)[number], replace: boolean) {
  const pair =
    algorithm === 'Ed25519'
      ? await generateCryptoKeyPair('Ed25519')
      : await crypto.subtle.generateKey(RSA_KEY, true, ['sign', 'verify']);
  await storeKeyPair(
    {
      algorithm,
      publicKey: JSON.stringify(await exportJwk(pair.publicKey)),
      privateKey: JSON.stringify(await exportJwk(pair.privateKey)),
    },
    replace,
  );
}

const missingAlgorithms = (stored: { algorithm: string }[]) =>
  KEY_ALGORITHMS.filter((a) => !stored.some((s) => s.algorithm === a));

/** The generation under way in this process, if any (callers share it). */
let making: Promise<void> | null = null;

/**
 * Make the pairs that are not stored yet: at start-up, and by a signer that finds one missing.
 * Instances starting together keep the first pair stored for each algorithm.
 */
export function ensureKeyPairs(): Promise<void> {
  making ??= (async () => {
    for (const algorithm of missingAlgorithms(await getStoredKeyPairs())) {
      await generate(algorithm, false);
    }
  })().finally(() => {
    making = null;
  });
  return making;
}

/** The actor's pairs, RSA first (Fedify signs HTTP requests with the first RSA pair). */
export async function actorKeyPairs(): Promise<CryptoKeyPair[]> {
  let stored = await getStoredKeyPairs();
  if (missingAlgorithms(stored).length > 0) {
    await ensureKeyPairs();
    stored = await getStoredKeyPairs();
  }
  const ordered = KEY_ALGORITHMS.flatMap((a) => stored.filter((s) => s.algorithm === a));
  return Promise.all(ordered.map((s) => importPair(s.publicKey, s.privateKey)));
}

/** New pairs for every algorithm (the old ones are forgotten: remote servers refetch). */
export async function rotateKeyPairs(): Promise<void> {
  for (const algorithm of KEY_ALGORITHMS) await generate(algorithm, true);
}
