import { describe, expect, it } from 'vitest';

import {
  clampPosition,
  createInitialState,
  createPlayerReducer,
  DEFAULT_VOLUME,
  displayDuration,
  FALLBACK_AUDIO_PATH,
  formatTimeForSpeech,
  isLoadable,
  normalizeAudioSrc,
  parseFavourites,
  parsePersisted,
  type PlayerAction,
  type PlayerState,
  type PlayerTrack,
  randomOtherIndex,
  resolveStartIndex,
  toPersisted,
  volumeLevel,
} from './player-machine';
import { queueTracks } from './player-queue';

const track = (id: number, audioFile = `/uploads/audio/t${id}.mp3`, title = `Track ${id}`) =>
  ({
    id,
    title,
    artist: 'Night Shore',
    album: null,
    duration: '3:00',
    coverImage: `/uploads/images/c${id}.jpg`,
    audioFile,
  }) satisfies PlayerTrack;

const reducer = createPlayerReducer(() => 0.5);
const run = (state: PlayerState, ...actions: PlayerAction[]) => actions.reduce(reducer, state);
const init = (assetHost = '') => createInitialState(assetHost);
const withQueue = (n: number, index = 0) =>
  run(
    init(),
    {
      type: 'setQueue',
      tracks: Array.from({ length: n }, (_, i) => track(i + 1)),
      index,
      keepCurrent: false,
    },
    { type: 'play' },
  );

describe('initial state', () => {
  it("has the player's defaults", () => {
    const s = init();
    expect(s.volume).toBe(DEFAULT_VOLUME);
    expect(s.volume).toBe(0.8);
    expect(s.loop).toBe(false);
    expect(s.shuffle).toBe(false);
    expect(s.playing).toBe(false);
    expect(s.current).toBeNull();
    expect(s.index).toBe(-1);
  });
});

describe('normalizeAudioSrc', () => {
  const host = 'https://cdn.example.com';
  it("replaces 'sample.mp3' with the fallback", () => {
    expect(normalizeAudioSrc('sample.mp3', '')).toBe(FALLBACK_AUDIO_PATH);
    expect(normalizeAudioSrc('sample.mp3', host)).toBe(host + FALLBACK_AUDIO_PATH);
  });
  it('replaces a path without the /uploads/audio/ segment with the fallback', () => {
    expect(normalizeAudioSrc('/music/song.mp3', '')).toBe('/uploads/audio/fallback.mp3');
    expect(normalizeAudioSrc('https://elsewhere.test/song.mp3', '')).toBe(FALLBACK_AUDIO_PATH);
    expect(normalizeAudioSrc('uploads/audio/x.mp3', '')).toBe(FALLBACK_AUDIO_PATH);
    expect(normalizeAudioSrc('', '')).toBe(FALLBACK_AUDIO_PATH);
    expect(normalizeAudioSrc(null, '')).toBe(FALLBACK_AUDIO_PATH);
  });
  it('keeps http and https URLs', () => {
    expect(normalizeAudioSrc('https://a.test/uploads/audio/x.mp3', host)).toBe(
      'https://a.test/uploads/audio/x.mp3',
    );
    expect(normalizeAudioSrc('http://a.test/uploads/audio/x.mp3', host)).toBe(
      'http://a.test/uploads/audio/x.mp3',
    );
  });
  it('gives a relative path a leading slash', () => {
    expect(normalizeAudioSrc('media/uploads/audio/x.mp3', host)).toBe('/media/uploads/audio/x.mp3');
  });
  it('prefixes other paths with the asset host', () => {
    expect(normalizeAudioSrc('/uploads/audio/x.mp3', host)).toBe(`${host}/uploads/audio/x.mp3`);
    expect(normalizeAudioSrc('/uploads/audio/x.mp3', `${host}/`)).toBe(
      `${host}/uploads/audio/x.mp3`,
    );
    expect(normalizeAudioSrc('/uploads/audio/x.mp3', '')).toBe('/uploads/audio/x.mp3');
  });
});

describe('loading', () => {
  it('is ignored without a title or an audio file', () => {
    const s = init();
    expect(run(s, { type: 'load', track: { ...track(1), title: '' }, autoplay: true })).toBe(s);
    expect(run(s, { type: 'load', track: { ...track(1), audioFile: '' }, autoplay: true })).toBe(s);
    expect(run(s, { type: 'playTrack', track: { ...track(1), title: '  ' } })).toBe(s);
    expect(isLoadable(track(1))).toBe(true);
    expect(isLoadable(null)).toBe(false);
  });

  it('appends a track missing from the queue and makes it current', () => {
    const s = run(withQueue(2), { type: 'playTrack', track: track(9) });
    expect(queueTracks(s.queue).map((t) => t.id)).toEqual([1, 2, 9]);
    expect(s.index).toBe(2);
    expect(s.current?.id).toBe(9);
    expect(s.playing).toBe(true);
    expect(s.src).toBe('/uploads/audio/t9.mp3');
  });

  it('plays a queued track at its index without duplicating it', () => {
    const s = run(withQueue(3), { type: 'playTrack', track: track(3) });
    expect(s.queue.size).toBe(3);
    expect(s.index).toBe(2);
    expect(s.position).toBe(0);
  });

  it('Play on the current track toggles', () => {
    let s = run(init(), { type: 'playTrack', track: track(1) });
    expect(s.playing).toBe(true);
    const nonce = s.loadNonce;
    s = run(s, { type: 'playTrack', track: track(1) });
    expect(s.playing).toBe(false);
    expect(s.loadNonce).toBe(nonce);
    s = run(s, { type: 'playTrack', track: track(1) });
    expect(s.playing).toBe(true);
  });

  it('load without autoplay makes the track current, paused', () => {
    const s = run(init(), { type: 'load', track: track(4), autoplay: false });
    expect(s.current?.id).toBe(4);
    expect(s.playing).toBe(false);
    expect(s.src).toBe('/uploads/audio/t4.mp3');
  });

  it('toggle does nothing without a track', () => {
    const s = init();
    expect(run(s, { type: 'toggle' })).toBe(s);
    expect(run(s, { type: 'play' })).toBe(s);
  });
});

describe('next and previous', () => {
  it('wrap around the queue', () => {
    let s = withQueue(3);
    expect(s.index).toBe(0);
    s = run(s, { type: 'prev' });
    expect(s.index).toBe(2);
    s = run(s, { type: 'next' });
    expect(s.index).toBe(0);
    s = run(s, { type: 'next' }, { type: 'next' });
    expect(s.index).toBe(2);
    s = run(s, { type: 'next' });
    expect(s.index).toBe(0);
    expect(s.current?.id).toBe(1);
  });

  it('keep the play state and reset the position', () => {
    let s = run(withQueue(3), { type: 'timeUpdate', position: 42 });
    s = run(s, { type: 'next' });
    expect(s.playing).toBe(true);
    expect(s.position).toBe(0);
    s = run(s, { type: 'pause' }, { type: 'next' });
    expect(s.playing).toBe(false);
  });

  it('with shuffle pick a random index other than the current one', () => {
    let s = run(withQueue(5), { type: 'toggleShuffle' });
    expect(s.shuffle).toBe(true);
    for (const r of [0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75, 0.99, 0.999999999999]) {
      for (const type of ['next', 'prev'] as const) {
        const before = s.index;
        const after = run(s, { type, random: r });
        expect(after.index).not.toBe(before);
        expect(after.index).toBeGreaterThanOrEqual(0);
        expect(after.index).toBeLessThan(5);
      }
      s = run(s, { type: 'next', random: r });
    }
  });

  it('with shuffle reach every other index', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 100; i++) seen.add(randomOtherIndex(4, 2, i / 100));
    expect([...seen].sort()).toEqual([0, 1, 3]);
  });

  it('with shuffle on a single-track queue stay on it', () => {
    const s = run(withQueue(1), { type: 'toggleShuffle' }, { type: 'next', random: 0.7 });
    expect(s.index).toBe(0);
  });

  it('uses the injected random function when an action carries none', () => {
    const r = createPlayerReducer(() => 0);
    let s = withQueue(4);
    s = r(s, { type: 'toggleShuffle' });
    s = r(s, { type: 'next' });
    expect(s.index).toBe(1);
  });

  it('from a current track outside the queue go to the first / last track', () => {
    let s = run(withQueue(3), { type: 'playTrack', track: track(9) });
    s = run(s, { type: 'setQueue', tracks: [track(1), track(2), track(3)], index: 0 });
    expect(s.current?.id).toBe(9);
    expect(s.index).toBe(-1);
    expect(run(s, { type: 'next' }).index).toBe(0);
    expect(run(s, { type: 'prev' }).index).toBe(2);
  });

  it('playIndex plays that queue entry', () => {
    const s = run(withQueue(3), { type: 'pause' }, { type: 'playIndex', index: 2 });
    expect(s.current?.id).toBe(3);
    expect(s.playing).toBe(true);
    expect(run(s, { type: 'playIndex', index: 7 })).toBe(s);
  });
});

describe('end of a track', () => {
  it('replays it with loop on', () => {
    let s = run(withQueue(3), { type: 'toggleLoop' }, { type: 'timeUpdate', position: 180 });
    const seek = s.seekNonce;
    s = run(s, { type: 'ended' });
    expect(s.index).toBe(0);
    expect(s.position).toBe(0);
    expect(s.playing).toBe(true);
    expect(s.seekNonce).toBe(seek + 1);
  });

  it('advances with loop off, wrapping at the end', () => {
    let s = run(withQueue(2), { type: 'ended' });
    expect(s.index).toBe(1);
    expect(s.playing).toBe(true);
    s = run(s, { type: 'ended' });
    expect(s.index).toBe(0);
  });

  it('advances to a random other track with shuffle on', () => {
    const s = run(withQueue(4, 3), { type: 'toggleShuffle' }, { type: 'ended', random: 0.99 });
    expect(s.index).not.toBe(0);
  });

  it('stops at the start when the queue holds only that track', () => {
    const s = run(withQueue(1), { type: 'timeUpdate', position: 180 }, { type: 'ended' });
    expect(s.playing).toBe(false);
    expect(s.position).toBe(0);
    expect(s.current?.id).toBe(1);
  });
});

describe('load errors', () => {
  it('retry once with the fallback file, then stop', () => {
    let s = run(init(), {
      type: 'playTrack',
      track: track(1, '/uploads/audio/missing.mp3'),
    });
    const nonce = s.loadNonce;
    s = run(s, { type: 'loadError', src: '/uploads/audio/missing.mp3' });
    expect(s.src).toBe(FALLBACK_AUDIO_PATH);
    expect(s.usingFallback).toBe(true);
    expect(s.loadNonce).toBe(nonce + 1);
    expect(s.playing).toBe(true);
    s = run(s, { type: 'loadError', src: FALLBACK_AUDIO_PATH });
    expect(s.failed).toBe(true);
    expect(s.playing).toBe(false);
    const after = run(s, { type: 'loadError', src: FALLBACK_AUDIO_PATH });
    expect(after).toBe(s);
    expect(run(s, { type: 'play' })).toBe(s);
  });

  it('stop at once when the track was already the fallback', () => {
    let s = run(init(), { type: 'playTrack', track: track(1, 'sample.mp3') });
    expect(s.src).toBe(FALLBACK_AUDIO_PATH);
    s = run(s, { type: 'loadError', src: FALLBACK_AUDIO_PATH });
    expect(s.failed).toBe(true);
  });

  it('ignore errors of a file that is no longer loaded', () => {
    const s = run(init(), { type: 'playTrack', track: track(2) });
    expect(run(s, { type: 'loadError', src: '/uploads/audio/t1.mp3' })).toBe(s);
  });

  it('a failed track can be left with next, and replayed from its Play button', () => {
    let s = run(
      withQueue(2),
      { type: 'loadError', src: '/uploads/audio/t1.mp3' },
      { type: 'loadError', src: FALLBACK_AUDIO_PATH },
    );
    expect(s.failed).toBe(true);
    s = run(s, { type: 'playTrack', track: track(1) });
    expect(s.failed).toBe(false);
    expect(s.playing).toBe(true);
    expect(s.src).toBe('/uploads/audio/t1.mp3');
  });

  it('use the asset host for the fallback', () => {
    let s = init('https://cdn.test');
    s = run(s, { type: 'playTrack', track: track(1) });
    expect(s.src).toBe('https://cdn.test/uploads/audio/t1.mp3');
    s = run(s, { type: 'loadError', src: 'https://cdn.test/uploads/audio/t1.mp3' });
    expect(s.src).toBe('https://cdn.test/uploads/audio/fallback.mp3');
  });
});

describe('volume', () => {
  it('is clamped to 0..1', () => {
    const s = init();
    expect(run(s, { type: 'setVolume', volume: 1.7 }).volume).toBe(1);
    expect(run(s, { type: 'setVolume', volume: -3 }).volume).toBe(0);
    expect(run(s, { type: 'setVolume', volume: 0.35 }).volume).toBe(0.35);
    expect(run(s, { type: 'setVolume', volume: Number.NaN })).toBe(s);
  });

  it('has three icon levels', () => {
    expect(volumeLevel(1)).toBe('high');
    expect(volumeLevel(0.51)).toBe('high');
    expect(volumeLevel(0.5)).toBe('low');
    expect(volumeLevel(0.01)).toBe('low');
    expect(volumeLevel(0)).toBe('muted');
  });
});

describe('shuffle and loop toggles', () => {
  it('flip', () => {
    const s = run(init(), { type: 'toggleShuffle' }, { type: 'toggleLoop' });
    expect(s.shuffle).toBe(true);
    expect(s.loop).toBe(true);
    const t = run(s, { type: 'toggleShuffle' }, { type: 'toggleLoop' });
    expect(t.shuffle).toBe(false);
    expect(t.loop).toBe(false);
  });
});

describe('setQueue', () => {
  const tracks = [
    track(1, 'sample.mp3'),
    track(2, 'https://elsewhere.test/a.mp3'),
    track(3, '/uploads/audio/three.mp3'),
    track(4, '/uploads/audio/four.mp3'),
  ];

  it('at index 0 starts at the first track under /uploads/audio/', () => {
    expect(resolveStartIndex(tracks, 0)).toBe(2);
    const s = run(init(), { type: 'setQueue', tracks, index: 0 });
    expect(s.index).toBe(2);
    expect(s.current?.id).toBe(3);
    expect(s.playing).toBe(false);
    expect(s.queue.size).toBe(4);
  });

  it('at index 0 with no uploads track starts at 0', () => {
    expect(resolveStartIndex([track(1, 'sample.mp3')], 0)).toBe(0);
  });

  it('at another index starts there (clamped)', () => {
    expect(resolveStartIndex(tracks, 1)).toBe(1);
    expect(resolveStartIndex(tracks, 10)).toBe(3);
    expect(resolveStartIndex([], 0)).toBe(-1);
    const s = run(init(), { type: 'setQueue', tracks, index: 1, keepCurrent: false });
    expect(s.current?.id).toBe(2);
  });

  it('keeps a current track that is in the new queue, playing on', () => {
    let s = run(init(), { type: 'playTrack', track: track(4, '/uploads/audio/four.mp3') });
    const nonce = s.loadNonce;
    s = run(s, { type: 'timeUpdate', position: 30 });
    s = run(s, { type: 'setQueue', tracks, index: 0 });
    expect(s.current?.id).toBe(4);
    expect(s.index).toBe(3);
    expect(s.playing).toBe(true);
    expect(s.position).toBe(30);
    expect(s.loadNonce).toBe(nonce);
  });

  it('replaces a paused current track that is not in the new queue', () => {
    let s = run(init(), { type: 'load', track: track(9), autoplay: false });
    s = run(s, { type: 'setQueue', tracks, index: 0 });
    expect(s.current?.id).toBe(3);
  });

  it('drops tracks that cannot be loaded', () => {
    const s = run(init(), {
      type: 'setQueue',
      tracks: [{ ...track(1), title: '' }, track(2)],
      index: 0,
    });
    expect(queueTracks(s.queue).map((t) => t.id)).toEqual([2]);
  });

  it('with no tracks clears the player', () => {
    const s = run(init(), { type: 'setQueue', tracks: [], index: 0 });
    expect(s.current).toBeNull();
    expect(s.index).toBe(-1);
  });
});

describe('addToQueue', () => {
  it('appends once, and makes the first track current (paused)', () => {
    let s = run(init(), { type: 'addToQueue', track: track(1) });
    expect(s.current?.id).toBe(1);
    expect(s.playing).toBe(false);
    s = run(s, { type: 'addToQueue', track: track(2) }, { type: 'addToQueue', track: track(2) });
    expect(queueTracks(s.queue).map((t) => t.id)).toEqual([1, 2]);
    expect(s.current?.id).toBe(1);
  });
});

describe('position, duration and seeking', () => {
  it('records position and duration', () => {
    const s = run(
      withQueue(1),
      { type: 'durationChange', duration: 200 },
      { type: 'timeUpdate', position: 12.5 },
    );
    expect(s.duration).toBe(200);
    expect(s.position).toBe(12.5);
    expect(run(s, { type: 'durationChange', duration: Number.NaN }).duration).toBe(0);
    expect(run(s, { type: 'timeUpdate', position: -1 })).toBe(s);
  });

  it('clamps seeks to 0..duration', () => {
    let s = run(withQueue(1), { type: 'durationChange', duration: 200 });
    s = run(s, { type: 'seek', position: 500 });
    expect(s.position).toBe(200);
    s = run(s, { type: 'seek', position: -5 });
    expect(s.position).toBe(0);
    s = run(s, { type: 'seek', position: 20 }, { type: 'seekBy', delta: -10 });
    expect(s.position).toBe(10);
    s = run(s, { type: 'seekBy', delta: -10 });
    expect(s.position).toBe(0);
    s = run(s, { type: 'seek', position: 195 }, { type: 'seekBy', delta: 10 });
    expect(s.position).toBe(200);
  });

  it('uses the track duration text while the file duration is unknown', () => {
    const s = run(withQueue(1), { type: 'seek', position: 999 });
    expect(s.position).toBe(180);
    expect(displayDuration(s)).toBe(180);
  });

  it('bumps seekNonce on every seek', () => {
    const s = withQueue(1);
    expect(run(s, { type: 'seek', position: 5 }).seekNonce).toBe(s.seekNonce + 1);
  });

  it('ignores seeks without a track', () => {
    const s = init();
    expect(run(s, { type: 'seek', position: 5 })).toBe(s);
  });

  it('clampPosition handles odd values', () => {
    expect(clampPosition(Number.NaN, 10)).toBe(0);
    expect(clampPosition(50, 0)).toBe(50);
    expect(clampPosition(50, 10)).toBe(10);
  });
});

describe('media element sync', () => {
  it('follows pauses and plays from outside', () => {
    let s = withQueue(1);
    s = run(s, { type: 'mediaPaused' });
    expect(s.playing).toBe(false);
    s = run(s, { type: 'mediaPlaying' });
    expect(s.playing).toBe(true);
    expect(run(init(), { type: 'mediaPlaying' }).playing).toBe(false);
  });
});

describe('persistence', () => {
  it('round-trips through local storage, restored paused', () => {
    let s = run(
      withQueue(3),
      { type: 'next' },
      { type: 'timeUpdate', position: 65.37 },
      { type: 'setVolume', volume: 0.4 },
      { type: 'toggleShuffle' },
      { type: 'toggleLoop' },
    );
    const raw = JSON.stringify(toPersisted(s));
    s = run(init(), { type: 'restore', saved: parsePersisted(raw) });
    expect(s.restored).toBe(true);
    expect(s.queue.size).toBe(3);
    expect(s.current?.id).toBe(2);
    expect(s.index).toBe(1);
    expect(s.position).toBe(65.3);
    expect(s.volume).toBe(0.4);
    expect(s.shuffle).toBe(true);
    expect(s.loop).toBe(true);
    expect(s.playing).toBe(false);
    expect(s.src).toBe('/uploads/audio/t2.mp3');
    expect(s.seekNonce).toBe(1);
  });

  it('marks the state restored even with nothing saved', () => {
    const s = run(init(), { type: 'restore', saved: null });
    expect(s.restored).toBe(true);
    expect(s.current).toBeNull();
  });

  it('rejects garbage', () => {
    expect(parsePersisted(null)).toBeNull();
    expect(parsePersisted('{not json')).toBeNull();
    expect(parsePersisted('42')).toBeNull();
    const p = parsePersisted(
      JSON.stringify({ queue: [{ id: 'x' }, track(1)], volume: 7, current: { id: 1 } }),
    );
    expect(p?.queue.size).toBe(1);
    expect(p?.volume).toBe(1);
    expect(p?.current).toBeNull();
    expect(p?.position).toBe(0);
  });

  it('reads favourites', () => {
    expect(parseFavourites('[1,2,"x",3.5]')).toEqual([1, 2]);
    expect(parseFavourites('nope')).toEqual([]);
    expect(parseFavourites(null)).toEqual([]);
  });
});

describe('formatting', () => {
  it('speaks times', () => {
    expect(formatTimeForSpeech(65)).toBe('1 minute 5 seconds');
    expect(formatTimeForSpeech(0)).toBe('0 seconds');
    expect(formatTimeForSpeech(61)).toBe('1 minute 1 second');
    expect(formatTimeForSpeech(120)).toBe('2 minutes');
    expect(formatTimeForSpeech(3725)).toBe('1 hour 2 minutes 5 seconds');
  });
  it("reads a track's stored duration until the audio element knows its own", () => {
    const total = (duration: string) =>
      displayDuration({ duration: 0, current: { ...track(1), duration } });
    expect(total('3:45')).toBe(225);
    expect(total('1:02:03')).toBe(3723);
    expect(total('99:99')).toBe(6039);
    expect(total('abc')).toBe(0);
    expect(total('')).toBe(0);
    expect(displayDuration({ duration: 200.5, current: { ...track(1), duration: '3:45' } })).toBe(
      200.5,
    );
  });
});
