import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium, defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive a real Chromium against the production build (`npm run build`
 * first), served by server/index.ts and started on a free port with a temporary DATA_DIR and UPLOADS_DIR. Two
 * projects: JavaScript on, and JavaScript off (progressive enhancement).
 *
 * The values are computed once by the runner and inherited by its workers through the
 * environment.
 */
const freePort = () =>
  execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
process.env.E2E_PORT ??= freePort();
process.env.E2E_API_PORT ??= freePort();
if (!process.env.E2E_DIR) {
  process.env.E2E_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-e2e-'));
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;
const apiPort = Number(process.env.E2E_API_PORT);
const apiBaseURL = `http://localhost:${apiPort}`;
const tmp = process.env.E2E_DIR;

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own browser. */
function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p) => p && fs.existsSync(p));
  if (found) return found;
  // Playwright's own download, when one was installed with `npx playwright install chromium`.
  const own = chromium.executablePath();
  if (own && fs.existsSync(own)) return undefined;
  throw new Error(
    'No Chromium found for the end-to-end tests. Install one with `sudo apt-get install -y chromium` ' +
      '(Debian/Ubuntu) or `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium binary.',
  );
}

const launchOptions = {
  executablePath: chromiumPath(),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--autoplay-policy=no-user-gesture-required',
  ],
};

/**
 * A production server on the build, run as `npm start` and the Docker image run it (the compiled
 * server module, two malloc arenas: decision 040), with its own temporary data and uploads.
 */
function server(serverPort: number, root: string) {
  return {
    command: `node build/server.js build/index.js`,
    url: `http://localhost:${serverPort}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      MALLOC_ARENA_MAX: '2',
      PORT: String(serverPort),
      DATA_DIR: path.join(root, 'data'),
      UPLOADS_DIR: path.join(root, 'uploads'),
      SEED: 'true',
      LOG_LEVEL: 'error',
      MONGODB_URI: '',
      SESSION_SECRET: 'e2e-session-secret-at-least-16-chars',
      SITE_URL: `http://localhost:${serverPort}`,
      // The suites log in, register and post from one address many times: raise the abuse
      // limits (tests/api/rate-limits.spec.ts checks them on a server of its own).
      RATE_LIMIT_LOGIN_PER_IP: '100000',
      RATE_LIMIT_LOGIN_PER_USER: '100000',
      RATE_LIMIT_REGISTER_PER_IP: '100000',
      RATE_LIMIT_CONTACT_PER_IP: '100000',
      RATE_LIMIT_SUBSCRIBE_PER_IP: '100000',
    },
  } as const;
}

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    // A failed test keeps its trace (actions, network, DOM snapshots) without the screencast:
    // recording a filmstrip of every test, passed or not, was a large share of the run's CPU
    // on a 2-core machine. The failure's own screenshot is still taken.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [
    {
      name: 'js',
      testMatch: 'e2e/**/*.spec.ts',
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'no-js',
      testMatch: 'e2e/**/*.spec.ts',
      use: { ...devices['Desktop Chrome'], launchOptions, javaScriptEnabled: false },
    },
    {
      // The /api JSON endpoints, through HTTP against a production server of their own
      // (same build, its own data), so their writes never race the page tests.
      name: 'api',
      testMatch: 'api/**/*.spec.ts',
      testIgnore: 'api/tracks.spec.ts',
      use: { baseURL: apiBaseURL },
    },
    {
      // tracks.spec.ts changes shared state (the theme, the featured flags, and finally
      // deletes every track): it runs after the other api tests, which compare that state
      // before and after their hostile inputs.
      name: 'api-tracks',
      testMatch: 'api/tracks.spec.ts',
      dependencies: ['api'],
      use: { baseURL: apiBaseURL },
    },
  ],
  webServer: [server(port, tmp), server(apiPort, path.join(tmp, 'api'))],
});
