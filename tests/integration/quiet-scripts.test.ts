import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

/**
 * The command-line tools say one line (issue 36): `npm run create-admin` on success, one clear
 * line and a non-zero exit code on failure; no warnings, no stack traces. Each run is the real
 * script in a process of its own, on a fresh DATA_DIR: the embedded store is started by the
 * script itself (the site is not running).
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-scripts-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Run = { code: number; stdout: string; stderr: string };

function run(script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', script],
      {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATA_DIR: path.join(tmp, 'data'),
          UPLOADS_DIR: path.join(tmp, 'uploads'),
          MONGODB_URI: '',
          SESSION_SECRET: '',
          // Whatever the app would log at info and above reaches the output.
          LOG_LEVEL: 'info',
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('npm run create-admin', () => {
  it('creates, then updates, the administrator on the embedded store it starts: one line each', async () => {
    const admin = { ADMIN_USERNAME: 'quiet-admin', ADMIN_PASSWORD: 'quiet-password-123' };
    const created = await run('scripts/create-admin.ts', admin);
    expect(created).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        /^Created administrator @quiet-admin \(id \d+\)\. Log in at \/auth\.\n$/,
      ),
      stderr: '',
    });
    const updated = await run('scripts/create-admin.ts', admin);
    expect(updated.code).toBe(0);
    expect(lines(updated.stdout)).toEqual([
      expect.stringMatching(/^Updated administrator @quiet-admin /),
    ]);
    expect(updated.stderr).toBe('');
  }, 120_000);

  it.each([
    [
      'a password too short',
      { ADMIN_USERNAME: 'quiet-admin', ADMIN_PASSWORD: 'abc' },
      /^create-admin: ADMIN_PASSWORD: Password must be at least 6 characters \(usage: /,
    ],
    [
      'no username',
      { ADMIN_USERNAME: '', ADMIN_PASSWORD: 'quiet-password-123' },
      /^create-admin: ADMIN_USERNAME: /,
    ],
    [
      'a MONGODB_URI that is not one',
      {
        ADMIN_USERNAME: 'quiet-admin',
        ADMIN_PASSWORD: 'quiet-password-123',
        MONGODB_URI: 'postgres://db.example/site',
      },
      /^create-admin failed: Invalid configuration: MONGODB_URI: /,
    ],
    [
      'a database that does not answer',
      {
        ADMIN_USERNAME: 'quiet-admin',
        ADMIN_PASSWORD: 'quiet-password-123',
        // Port 1 on this machine: nothing listens there.
        MONGODB_URI: 'mongodb://127.0.0.1:1/',
        SESSION_SECRET: 'quiet-scripts-secret-0123456789',
      },
      /^create-admin failed: connect ECONNREFUSED 127\.0\.0\.1:1$/,
    ],
  ])(
    '%s: one clear line on stderr, exit code 1',
    async (_case, env, message) => {
      const result = await run('scripts/create-admin.ts', env);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(lines(result.stderr)).toEqual([expect.stringMatching(message)]);
    },
    120_000,
  );
});
