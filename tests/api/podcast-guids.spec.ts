import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import { startServer, type TestServer } from '../security/server';

/**
 * Podcast GUIDs survive a domain move (decision 037): a server of our own on a fresh folder with
 * the demo content, then the same DATA_DIR restarted with another SITE_URL. Every episode keeps
 * its GUID, which names no host and is not a permalink.
 */
test.describe.configure({ mode: 'serial' });

const HOST_FREE_GUID =
  /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Episode = { path: string; guid: string; guidTag: string };

/** Each item of /podcast.xml: its link's path, its GUID and the GUID's whole tag. */
async function episodes(server: TestServer): Promise<Episode[]> {
  const response = await fetch(`${server.url}/podcast.xml`);
  expect(response.status).toBe(200);
  const xml = await response.text();
  return xml
    .split('<item>')
    .slice(1)
    .map((item) => {
      const guidTag = /<guid[^>]*>[^<]*<\/guid>/.exec(item)?.[0] ?? '';
      return {
        path: new URL(/<link>([^<]+)<\/link>/.exec(item)?.[1] ?? '').pathname,
        guid: /<guid[^>]*>([^<]*)<\/guid>/.exec(item)?.[1] ?? '',
        guidTag,
      };
    });
}

async function stop(server: TestServer): Promise<void> {
  server.proc.kill('SIGTERM');
  await server.exited;
}

test('/podcast.xml GUIDs name no host and stay the same after a restart with another SITE_URL', async () => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-guids-'));
  let server: TestServer | null = null;
  try {
    // A fresh clone: no SITE_URL (links say http://localhost:PORT), the demo content seeded.
    server = await startServer(dir, { SEED: 'true' });
    const first = await episodes(server);
    // The demo catalogue holds a mix: the feed is not empty.
    expect(first.length).toBeGreaterThan(0);
    for (const episode of first) {
      expect(episode.guidTag).toBe(`<guid isPermaLink="false">${episode.guid}</guid>`);
      expect(episode.guid).toMatch(HOST_FREE_GUID);
      expect(episode.guid).not.toContain('localhost');
      expect(episode.guid).not.toContain(String(server.port));
    }
    await stop(server);
    server = null;

    // The same data, now on its real domain.
    server = await startServer(dir, { SEED: 'true', SITE_URL: 'https://nightshore.example' });
    const response = await fetch(`${server.url}/podcast.xml`);
    expect(await response.text()).toContain('<link>https://nightshore.example/music/');
    expect(await episodes(server)).toEqual(first);
  } finally {
    if (server) await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
