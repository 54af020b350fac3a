// `npm run fediverse:rotate-keys`
// Replaces the fediverse actor's key pairs (RSA and Ed25519) with new ones (decision 053,
// docs/fediverse.md). Works on MONGODB_URI and on the embedded store, also while the site runs:
// every instance signs with the new keys from its next delivery. Remote servers fetch the new
// public key when a signature no longer verifies with the one they cached.
import { runScript } from './run-script';

await runScript(
  'fediverse:rotate-keys',
  async () => {
    const { rotateKeyPairs, KEY_ALGORITHMS } = await import('../app/fediverse/keys.server');
    await rotateKeyPairs();
    return `New fediverse key pairs (${KEY_ALGORITHMS.join(', ')}) stored; the actor document shows them now.`;
  },
  { db: true },
);
