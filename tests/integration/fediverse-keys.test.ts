import { describe, expect, it } from 'vitest';

import { clearDatabase, setupTestDatabase } from '../helpers/test-db';

/**
 * The actor's keys (decision 053, app/fediverse/keys.server.ts), on the embedded store: made
 * once however many callers ask at once (start-up and the first signers), RSA at 2,048 bits as
 * Mastodon's own, kept across calls, replaced only by a rotation.
 */
setupTestDatabase();

describe('fediverse keys', () => {
  it('callers at once share one generation; the pairs stay until rotated', async () => {
    await clearDatabase();
    const keys = await import('../../app/fediverse/keys.server');
    const store = await import('../../app/models/fediverse-store.server');

    const [, first, second] = await Promise.all([
      keys.ensureKeyPairs(),
      keys.actorKeyPairs(),
      keys.actorKeyPairs(),
    ]);
    const stored = await store.getStoredKeyPairs();
    expect(stored.map((s) => s.algorithm).sort()).toEqual(['Ed25519', 'RSASSA-PKCS1-v1_5']);

    const rsa = first[0]!.privateKey.algorithm as RsaHashedKeyAlgorithm;
    expect(rsa.name).toBe('RSASSA-PKCS1-v1_5');
    expect(rsa.modulusLength).toBe(2048);
    expect(first[1]!.privateKey.algorithm.name).toBe('Ed25519');
    // Both signers got the stored pairs (no second generation replaced what one of them took).
    const jwk = async (k: CryptoKey) => JSON.stringify(await crypto.subtle.exportKey('jwk', k));
    expect(await jwk(second[0]!.publicKey)).toBe(await jwk(first[0]!.publicKey));
    expect(JSON.parse(stored.find((s) => s.algorithm === 'RSASSA-PKCS1-v1_5')!.publicKey)).toEqual(
      JSON.parse(await jwk(first[0]!.publicKey)),
    );

    await keys.ensureKeyPairs();
    expect(await store.getStoredKeyPairs()).toEqual(stored);

    await keys.rotateKeyPairs();
    const rotated = await store.getStoredKeyPairs();
    expect(rotated.map((s) => s.publicKey)).not.toContain(stored[0]!.publicKey);
    expect(rotated.map((s) => s.publicKey)).not.toContain(stored[1]!.publicKey);
  });
});
