import fs from 'node:fs';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { coverFile, unique } from './admin-helpers';
import { expect, runScriptAsync } from './fixtures';

/**
 * Mixes made by the tests that need one (mixes.spec.ts, mix-page-layout.spec.ts): created
 * through the admin API with the demo mix's 4:28 of generated MP3 as their audio, and given
 * peaks of their own through the model.
 */

/** The demo mix: the demo tracks back to back, built by scripts/demo/generate-media.ts. */
export const MIX_AUDIO = path.resolve('demo/media/audio/night-shore-mix.mp3');

/** Peaks as the peaks job would store them: 400 columns, each `level(column)` high (0–127). */
export function testPeaks(level: (column: number) => number) {
  const data: number[] = [];
  for (let i = 0; i < 400; i++) data.push(-level(i), level(i));
  return {
    version: 2,
    channels: 1,
    sample_rate: 44100,
    samples_per_pixel: 29600,
    bits: 8,
    length: 400,
    data,
  };
}

export type CreatedMix = { id: number; title: string; audioFile: string };

/**
 * A Mix created through the admin API (the page must be on the site: the API wants a
 * same-origin request), with `peaks` stored unless they are null. Storing them runs a Node
 * process of its own that opens the store: a few seconds on a quiet machine, most of a minute on
 * a loaded one, so the tests that store peaks are marked slow.
 */
export async function createMix(
  page: Page,
  options: {
    title: string;
    description: string;
    tracklist: string;
    peaks: ReturnType<typeof testPeaks> | null;
  },
): Promise<CreatedMix> {
  const response = await page.request.post('/api/admin/tracks', {
    headers: { Origin: new URL(page.url()).origin },
    multipart: {
      title: unique(options.title),
      type: 'Mix',
      description: options.description,
      tracklist: options.tracklist,
      coverImage: {
        name: 'cover.jpg',
        mimeType: 'image/jpeg',
        buffer: fs.readFileSync(coverFile()),
      },
      audioFile: { name: 'mix.mp3', mimeType: 'audio/mpeg', buffer: fs.readFileSync(MIX_AUDIO) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const track = (await response.json()) as CreatedMix;
  if (options.peaks) {
    await runScriptAsync('tests/e2e/scripts/save-peaks.ts', {
      TRACK_ID: String(track.id),
      AUDIO_FILE: track.audioFile,
      PEAKS: JSON.stringify(options.peaks),
    });
  }
  return track;
}
