import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Points the environment at a fresh scratch folder (DATA_DIR and UPLOADS_DIR under it, a test
 * session secret) and makes env.server read it again. `env.server` reads the environment once,
 * at import: call this inside `vi.hoisted`, before the test file imports app modules.
 * Returns the folder.
 */
export async function scratchEnv(prefix: string): Promise<string> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.DATA_DIR = path.join(base, 'data');
  process.env.UPLOADS_DIR = path.join(base, 'uploads');
  process.env.SESSION_SECRET = 'test-secret-test-secret';
  (await import('../../app/platform/process-state.server')).forgetProcessSingleton('env');
  return base;
}
