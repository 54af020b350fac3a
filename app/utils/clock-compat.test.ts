import { describe, expect, it } from 'vitest';

import { formatClock, parseClock } from './media-time';

/**
 * The clock formatters and parsers the site had before decision 049, copied here as they were:
 * the one formatter and parser must give the same text and seconds for every input the callers
 * pass (the embed page's HTML and script, the podcast notes, the player, the track model, the
 * JSON-LD fallback).
 */
const old = {
  /** utils/media-time formatClock (pages, admin, seed, player via formatTime). */
  formatClock(seconds: number): string {
    const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = String(s % 60).padStart(2, '0');
    return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
  },
  /** services/embed.server.ts `fmt` (the embed page's HTML). */
  embedPage(seconds: number): string {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const pad = (n: number) => String(n).padStart(2, '0');
    return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  },
  /** app/embed/player.ts `fmt` (the embed's script). */
  embedScript(seconds: number): string {
    const s = Math.max(0, Math.floor(seconds || 0));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const pad = (n: number) => String(n).padStart(2, '0');
    return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  },
  /** utils/seo/podcast-feed.ts `clockTime` (the tracklist in the episode notes). */
  podcastNotes(seconds: number): string {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, '0');
    return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
  },
  /** player/player-rules.ts `parseDuration` (the total before the audio element knows it). */
  parseDuration(text: string | null | undefined): number {
    if (!text) return 0;
    const parts = text.trim().split(':');
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return 0;
    return parts.reduce((acc, p) => acc * 60 + Number(p), 0);
  },
  /** models/track.server.ts `secondsOf` (durationSeconds of a record from before it was stored). */
  secondsOf(duration: string): number {
    if (!/^\d+(:[0-5]\d){1,2}$/.test(duration)) return 0;
    return duration.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  },
};

/** Every whole second to 30 hours in steps, fractions, and the edges of each unit. */
const SECONDS = [
  ...Array.from({ length: 4000 }, (_, i) => i),
  ...Array.from({ length: 2000 }, (_, i) => i * 53 + 0.5),
  59.999,
  3599.9,
  3600,
  35_999,
  36_000,
  86_399,
  86_400,
  108_000,
];

describe('the one clock formatter', () => {
  it('writes what each of the four formatters wrote, for every time they were given', () => {
    for (const s of SECONDS) {
      const text = formatClock(s);
      expect(text).toBe(old.formatClock(s));
      expect(text).toBe(old.embedPage(s));
      expect(text).toBe(old.embedScript(s));
      expect(text).toBe(old.podcastNotes(s));
    }
  });

  it('writes 0:00 for what is not a time (where two of the old ones wrote NaN or Infinity)', () => {
    for (const bad of [Number.NaN, -1, -3600, Number.NEGATIVE_INFINITY]) {
      expect(formatClock(bad)).toBe('0:00');
      expect(old.embedScript(bad)).toBe('0:00');
    }
    expect(old.embedPage(Number.NaN)).toBe('NaN:NaN');
    expect(formatClock(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
});

describe('the one clock parser', () => {
  const texts = [
    ...SECONDS.map((s) => old.formatClock(s)),
    '3:45',
    '1:02:03',
    '62:30',
    '99:99',
    '3:5',
    '100:00:00',
    ' 4:05 ',
    '1:2:3:4',
    '4',
    ':30',
    '3:',
    '-1:00',
    '1.5:30',
    'abc',
    '',
  ];

  it("lenient: reads a stored duration as the player's parseDuration did", () => {
    for (const text of texts) {
      expect(parseClock(text, { lenient: true }) ?? 0).toBe(old.parseDuration(text));
    }
    expect(parseClock(null, { lenient: true })).toBeNull();
    expect(parseClock(undefined, { lenient: true })).toBeNull();
  });

  it("lenient: what the track model's secondsOf read, it reads the same", () => {
    for (const text of texts) {
      const before = old.secondsOf(text);
      if (before > 0) expect(parseClock(text, { lenient: true })).toBe(before);
    }
  });

  it('strict (the admin form): every formatted time under 24 hours reads back', () => {
    for (const s of SECONDS.filter((n) => n <= 86_400)) {
      expect(parseClock(formatClock(s))).toBe(Math.floor(s));
    }
    expect(parseClock('99:99')).toBeNull();
    expect(parseClock('100:00:00')).toBeNull();
  });
});
