import type { Page } from '@playwright/test';

/** Tracks on one page of /music. */
export const PER_PAGE = 24;

type Window = {
  total: number;
  position: number;
  tracks: { id: number; title: string; locked: boolean; audioFile?: string | null }[];
};

/**
 * The oldest tracks of the catalogue this listener can play, oldest last, from the API: the
 * seeded ones, which no test adds before, renames or deletes (the grid's pages move as other
 * tests add tracks; its last card may be another test's three-second track, deleted soon).
 */
export async function oldestPlayable(page: Page): Promise<{ id: number; title: string }[]> {
  if (page.url() === 'about:blank') await page.goto('/healthz');
  return page.evaluate(async (per) => {
    const head = (await (
      await fetch('/api/tracks/queue?position=0&count=1', { cache: 'no-store' })
    ).json()) as Window;
    const from = Math.max(0, head.total - per);
    const res = await fetch(`/api/tracks/queue?position=${from}&count=${per}`, {
      cache: 'no-store',
    });
    const w = (await res.json()) as Window;
    return w.tracks
      .filter((t) => !t.locked && t.audioFile)
      .map((t) => ({ id: t.id, title: t.title }));
  }, PER_PAGE);
}

/** The title of the last track of the catalogue this listener can play, from the API. */
export async function lastPlayableTitle(page: Page): Promise<string | undefined> {
  return (await oldestPlayable(page)).at(-1)?.title;
}

/**
 * What the order of the queue rests on, from the API: its size and the tracks at both ends
 * (a track added, deleted or renamed there changes it).
 */
export async function catalogueStamp(page: Page): Promise<string> {
  if (page.url() === 'about:blank') await page.goto('/healthz');
  const ends = await page.evaluate(async () => {
    const head = (await (
      await fetch('/api/tracks/queue?position=0&count=3', { cache: 'no-store' })
    ).json()) as Window;
    const from = Math.max(0, head.total - 3);
    const tail = (await (
      await fetch(`/api/tracks/queue?position=${from}&count=3`, { cache: 'no-store' })
    ).json()) as Window;
    return {
      total: head.total,
      head: head.tracks.map((t) => t.title),
      tail: tail.tracks.map((t) => t.title),
    };
  });
  return JSON.stringify(ends);
}

/**
 * Makes the page a new listener: the player restores its last track after a reload (saved in
 * local storage, and again on pagehide), so the storage is cleared from a page without the
 * player, after /music has been left.
 */
export async function forgetPlayer(page: Page): Promise<void> {
  await page.goto('/healthz');
  await page.evaluate(() => window.localStorage.removeItem('night-shore:player'));
}
