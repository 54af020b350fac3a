import { describe, expect, it } from 'vitest';

import type { BlogPostJSON, TrackJSON } from '~/types/entities';

import {
  ANONYMOUS,
  FULL_ACCESS,
  isMembersOnly,
  isPlayable,
  postFor,
  publicOnText,
  trackFor,
  unlockHref,
} from './access';

const track: TrackJSON = {
  id: 3,
  title: 'Low Tide',
  artist: 'Night Shore',
  album: null,
  type: 'Single',
  duration: '3:10',
  durationSeconds: 0,
  description: null,
  tracklist: [],
  audioStatus: 'ready',
  coverImage: '/uploads/images/low-tide.jpg',
  audioFile: '/uploads/audio/low-tide.mp3',
  featured: false,
  visibility: 'members',
  publicAt: null,
  locked: false,
  createdAt: '2026-11-01T12:00:00.000Z',
};

const post: BlogPostJSON = {
  id: 4,
  title: 'Studio diary',
  slug: 'studio-diary',
  content: 'The whole story, for members.',
  excerpt: 'A look inside.',
  imageUrl: '/uploads/images/studio.jpg',
  category: 'NEWS',
  visibility: 'members',
  publicAt: null,
  locked: false,
  createdAt: '2026-11-01T12:00:00.000Z',
};

describe('isMembersOnly', () => {
  it('is false for public items, whatever their date', () => {
    expect(isMembersOnly({ visibility: 'public', publicAt: null }, '2026-11-24')).toBe(false);
    expect(isMembersOnly({ visibility: 'public', publicAt: '2030-01-01' }, '2026-11-24')).toBe(
      false,
    );
  });

  it('is true for members-only items without a date', () => {
    expect(isMembersOnly({ visibility: 'members', publicAt: null }, '2026-11-24')).toBe(true);
  });

  it('early access: members-only before the day, public from the day on', () => {
    const item = { visibility: 'members' as const, publicAt: '2026-11-24' };
    expect(isMembersOnly(item, '2026-11-23')).toBe(true);
    expect(isMembersOnly(item, '2026-11-24')).toBe(false);
    expect(isMembersOnly(item, '2026-11-25')).toBe(false);
  });
});

describe('trackFor / postFor', () => {
  it('a visitor without an account gets the item locked, without the audio or the body', () => {
    const seen = trackFor({ member: false, today: '2026-11-24' }, track);
    expect(seen.locked).toBe(true);
    expect(seen).not.toHaveProperty('audioFile');
    expect(JSON.stringify(seen)).not.toContain('low-tide.mp3');
    const read = postFor({ member: false, today: '2026-11-24' }, post);
    expect(read.locked).toBe(true);
    expect(read).not.toHaveProperty('content');
    expect(JSON.stringify(read)).not.toContain('The whole story');
  });

  it('members (and the back office) get the whole item', () => {
    expect(trackFor({ member: true }, track)).toEqual(track);
    expect(postFor(FULL_ACCESS, post)).toEqual(post);
  });

  it('public and past-early-access items are whole for everyone', () => {
    expect(trackFor(ANONYMOUS, { ...track, visibility: 'public' })).toMatchObject({
      locked: false,
      audioFile: track.audioFile,
    });
    const released = { ...post, publicAt: '2026-11-20' };
    expect(postFor({ member: false, today: '2026-11-24' }, released)).toEqual(released);
  });

  it('a track still processing, or failed, has no audio URL for anyone: its upload is not public', () => {
    for (const audioStatus of ['processing', 'failed'] as const) {
      const pending = { ...track, visibility: 'public' as const, audioStatus };
      for (const viewer of [ANONYMOUS, { member: true }]) {
        const seen = trackFor(viewer, pending);
        expect(seen).toMatchObject({ locked: false, audioFile: null, audioStatus });
        expect(isPlayable(seen)).toBe(false);
      }
      // Members-only and locked: no audioFile at all, as before.
      expect(trackFor(ANONYMOUS, { ...track, audioStatus })).not.toHaveProperty('audioFile');
    }
  });

  it('isPlayable keeps the unlocked tracks only', () => {
    const list = [
      trackFor(ANONYMOUS, track),
      trackFor(ANONYMOUS, { ...track, id: 5, visibility: 'public' }),
    ];
    expect(list.filter(isPlayable).map((t) => t.id)).toEqual([5]);
  });
});

describe('texts and links', () => {
  it('names the day an early-access item turns public', () => {
    const item = { visibility: 'members' as const, publicAt: '2026-12-05' };
    expect(publicOnText(item, '2026-11-24')).toBe('Public on December 5, 2026');
    expect(publicOnText({ ...item, publicAt: null }, '2026-11-24')).toBeNull();
    expect(publicOnText(item, '2026-12-05')).toBeNull();
  });

  it('sends the visitor to log in (or register) and back', () => {
    expect(unlockHref('/music?track=3')).toBe('/auth?redirectTo=%2Fmusic%3Ftrack%3D3');
    expect(unlockHref('/blog/studio-diary', 'register')).toBe(
      '/auth?tab=register&redirectTo=%2Fblog%2Fstudio-diary',
    );
  });
});
