import type { Page } from '@playwright/test';

/** Tracks on one page of /music. */
export const PER_PAGE = 24;

type Window = {
  total: number;
  position: number;
  tracks: { title: string; locked: boolean; audioFile?: string | null }[];
};

/** The title of the last track of the catalogue this listener can play, from the API. */
export async function lastPlayableTitle(page: Page): Promise<string | undefined> {
  return page.evaluate(async (per) => {
    const head = (await (await fetch('/api/tracks/queue?position=0&count=1')).json()) as Window;
    const from = Math.max(0, head.total - per);
    const res = await fetch(`/api/tracks/queue?position=${from}&count=${per}`);
    const w = (await res.json()) as Window;
    return w.tracks.filter((t) => !t.locked && t.audioFile).at(-1)?.title;
  }, PER_PAGE);
}

/**
 * The titles this listener can play from the head of the catalogue (newest first), from the
 * API: what next wraps to from the last track.
 */
export async function headPlayableTitles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const res = await fetch('/api/tracks/queue?position=0&count=100');
    const w = (await res.json()) as Window;
    return w.tracks.filter((t) => !t.locked && t.audioFile).map((t) => t.title);
  });
}
