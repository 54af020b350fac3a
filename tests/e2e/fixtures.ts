import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { expect, type Page, type Response, test as base } from '@playwright/test';

/**
 * The temporary folders of the server the current test talks to (see playwright.config.ts):
 * the `api` and `api-tracks` projects have a server of their own, so their data changes never
 * race the pages'.
 */
function serverRoot(): string {
  let project = '';
  try {
    project = base.info().project.name;
  } catch {
    // Outside a test (e.g. module scope): the pages' server.
  }
  return path.join(process.env.E2E_DIR ?? '', project.startsWith('api') ? 'api' : '');
}
export const e2eDataDir = () => path.join(serverRoot(), 'data');
export const e2eUploadsDir = () => path.join(serverRoot(), 'uploads');

export const ADMIN = { username: 'e2e-admin', password: 'admin-password-123' };
export const USER = { username: 'e2e-user', password: 'user-password-123' };

const execFileAsync = promisify(execFile);

const scriptArgs = (script: string) => ['node_modules/tsx/dist/cli.mjs', script];
const scriptEnv = (env: Record<string, string>) => ({
  ...process.env,
  DATA_DIR: e2eDataDir(),
  UPLOADS_DIR: e2eUploadsDir(),
  MONGODB_URI: '',
  SEED: 'false',
  LOG_LEVEL: 'error',
  ...env,
});

/** Run a project script (create-admin, …) against the running e2e server's store. */
export function runScript(script: string, env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, scriptArgs(script), {
    env: scriptEnv(env),
    encoding: 'utf8',
  });
}

/**
 * `runScript` without blocking the test's event loop: for a test that goes on using its HTTP
 * connections. While a synchronous script runs, a kept-alive connection the server closes
 * (after its 5 s idle timeout) is never noticed, and the next request on it fails with
 * ECONNRESET.
 */
export async function runScriptAsync(
  script: string,
  env: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, scriptArgs(script), {
    env: scriptEnv(env),
    encoding: 'utf8',
  });
  return stdout;
}

/** Log in through the real /auth form action; cookies land in the page's context. */
export async function logIn(page: Page, credentials: { username: string; password: string }) {
  const response = await page.request.post('/auth', {
    form: { intent: 'login', username: credentials.username, password: credentials.password },
    maxRedirects: 0,
  });
  expect(response.status(), 'login should redirect').toBe(302);
}

type Fixtures = {
  /** A page logged in as an administrator (created with `npm run create-admin`). */
  adminPage: Page;
  /** A page logged in as a plain registered user. */
  userPage: Page;
};

type WorkerFixtures = { accounts: void };

/**
 * Pages hydrate once they have loaded (decision 012); until then they are the server-rendered
 * page, which the `no-js` project covers. In the `js` project every page a test opens or
 * reloads is therefore awaited up to hydration (the root sets `data-hydrated` on <html>), so
 * the JavaScript behaviour is what gets tested.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

function awaitHydrationOnNavigation(page: Page): void {
  const afterNavigation = async (response: Response | null) => {
    if (response && (response.headers()['content-type'] ?? '').includes('text/html'))
      await waitForHydration(page);
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => afterNavigation(await goto(...args));
  page.reload = async (...args) => afterNavigation(await reload(...args));
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled) awaitHydrationOnNavigation(page);
    await use(page);
  },
  accounts: [
    async ({}, use) => {
      runScript('scripts/create-admin.ts', {
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      });
      await use();
    },
    { scope: 'worker' },
  ],
  adminPage: async ({ page, accounts: _accounts }, use) => {
    await logIn(page, ADMIN);
    await use(page);
  },
  userPage: async ({ page, request }, use) => {
    // Register once (a taken name is fine), then log in.
    await request.post('/auth', {
      form: {
        intent: 'register',
        username: USER.username,
        password: USER.password,
        confirmPassword: USER.password,
      },
      maxRedirects: 0,
    });
    await logIn(page, USER);
    await use(page);
  },
});

export { expect };
