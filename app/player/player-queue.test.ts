import { describe, expect, it } from 'vitest';

import {
  createInitialState,
  createPlayerReducer,
  type PlayerAction,
  type PlayerState,
  type PlayerTrack,
  toPersisted,
} from './player-machine';
import { parsePersisted } from './player-persisted';
import { MAX_QUEUE_SLOTS, type QueueSlot, queueTracks } from './player-queue';
import { prefetchNeeds } from './player-transitions';

/**
 * The catalogue queue (issue 37): every track by position, a window loaded at a time. The
 * "server" here is an array: `serve(catalogue, position, count)` is what GET /api/tracks/queue
 * answers.
 */

const track = (id: number, audioFile = `/uploads/audio/t${id}.mp3`): PlayerTrack => ({
  id,
  title: `Track ${id}`,
  artist: 'Night Shore',
  album: null,
  duration: '3:00',
  coverImage: `/uploads/images/c${id}.jpg`,
  audioFile,
});

/** A catalogue of `n` tracks, newest first: ids n..1 (position p holds id n - p). */
const catalogue = (n: number): QueueSlot[] => Array.from({ length: n }, (_, p) => track(n - p));

const reducer = createPlayerReducer(() => 0.5);
const run = (state: PlayerState, ...actions: PlayerAction[]) => actions.reduce(reducer, state);
const PAGE = 24;

/** /music's page `page` (1-based) opened on `cat`. */
const openPage = (state: PlayerState, cat: QueueSlot[], page = 1): PlayerState => {
  const offset = (page - 1) * PAGE;
  return run(state, {
    type: 'setCatalogue',
    size: cat.length,
    offset,
    tracks: cat.slice(offset, offset + PAGE),
  });
};

/** The provider's part: answers the pending request from `cat`, as the endpoint would. */
function answer(state: PlayerState, cat: QueueSlot[], count = PAGE): PlayerState {
  const r = state.request;
  if (!r) throw new Error('no request');
  let position: number;
  let at: number | null = null;
  if (r.kind === 'move') {
    position = r.direction === 1 ? r.position : Math.max(0, r.position - count + 1);
    at = position;
  } else if (r.kind === 'start') {
    at = cat.findIndex((t) => t?.audioFile.includes('/uploads/audio/'));
    if (at === -1) at = cat.findIndex((t) => t !== null);
    if (at === -1) at = null;
    position = at ?? 0;
  } else {
    at = cat.findIndex((t) => t?.id === r.trackId);
    if (at === -1) at = null;
    position = Math.max(0, (at ?? 0) - 4);
  }
  return run(state, {
    type: 'queueWindow',
    requestId: r.id,
    total: cat.length,
    position,
    at,
    tracks: cat.slice(position, position + count),
  });
}

/** A window the provider prefetched (no request): `tracks` at `position` of `total`. */
const prefetched = (total: number, position: number, tracks: QueueSlot[]): PlayerAction => ({
  type: 'queueWindow',
  requestId: null,
  total,
  position,
  at: position,
  tracks,
});

const fresh = () => run(createInitialState(), { type: 'restore', saved: null });

describe('the catalogue queue from /music', () => {
  it('knows every position but loads only the page', () => {
    const s = openPage(fresh(), catalogue(100));
    expect(s.queue.source).toBe('catalogue');
    expect(s.queue.size).toBe(100);
    expect(Object.keys(s.queue.slots)).toHaveLength(PAGE);
    expect(s.index).toBe(0);
    expect(s.current?.id).toBe(100);
    expect(s.playing).toBe(false);
    expect(s.request).toBeNull();
  });

  it('starts at the first track under /uploads/audio/ found on the page', () => {
    const cat = catalogue(50);
    cat[0] = track(50, 'https://elsewhere.test/a.mp3');
    cat[1] = null; // locked for this visitor
    const s = openPage(fresh(), cat);
    expect(s.index).toBe(2);
    expect(s.current?.id).toBe(48);
  });

  it('asks the server for the start when the page does not tell (a later page, a search)', () => {
    const cat = catalogue(60);
    let s = openPage(fresh(), cat, 2);
    expect(s.request?.kind).toBe('start');
    expect(s.current).toBeNull();
    s = answer(s, cat);
    expect(s.request).toBeNull();
    expect(s.index).toBe(0);
    expect(s.current?.id).toBe(60);

    let searched = run(fresh(), { type: 'setCatalogue', size: 60, offset: null, tracks: [] });
    expect(searched.request?.kind).toBe('start');
    searched = answer(searched, cat);
    expect(searched.current?.id).toBe(60);
  });

  it('a start answered after the listener pressed Play does not take the track back', () => {
    // A search page (the page does not tell the start) opened with a restored track, paused,
    // while the catalogue grew: the start is asked of the server. Play is pressed on the
    // restored track's card before the answer comes: it keeps playing.
    const restored = openPage(fresh(), catalogue(60));
    const saved = parsePersisted(JSON.stringify(toPersisted(run(restored, { type: 'next' }))));
    let s = run(createInitialState(), { type: 'restore', saved });
    expect(s.current?.id).toBe(59);
    const grown = catalogue(61);
    s = run(s, { type: 'setCatalogue', size: grown.length, offset: null, tracks: [] });
    expect(s.request?.kind).toBe('start');
    s = run(s, { type: 'playTrack', track: s.current! });
    expect(s.playing).toBe(true);
    s = answer(s, grown);
    expect(s.current?.id).toBe(59);
    expect(s.playing).toBe(true);
    // Its place in the catalogue is found: next goes on from there.
    s = s.request ? answer(s, grown) : s;
    expect(s.index).toBe(grown.findIndex((t) => t?.id === 59));
  });

  it('with no track this listener may play clears the player', () => {
    const cat: QueueSlot[] = Array.from({ length: 30 }, () => null);
    let s = openPage(fresh(), cat);
    expect(s.request?.kind).toBe('start');
    s = answer(s, cat);
    expect(s.current).toBeNull();
    expect(s.index).toBe(-1);
  });

  it('keeps a playing track and its position when another page opens', () => {
    const cat = catalogue(100);
    let s = openPage(fresh(), cat);
    s = run(s, { type: 'playIndex', index: 5 });
    s = openPage(s, cat, 3);
    expect(s.current?.id).toBe(95);
    expect(s.index).toBe(5);
    expect(s.playing).toBe(true);
    expect(Object.keys(s.queue.slots)).toHaveLength(2 * PAGE);
  });
});

describe('next and previous over the whole catalogue', () => {
  it('next from the last track of page 1 asks for page 2, then plays its first track', () => {
    const cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: PAGE - 1 });
    s = run(s, { type: 'next' });
    // The current track plays on while the one fetch is made.
    expect(s.index).toBe(PAGE - 1);
    expect(s.request).toMatchObject({ kind: 'move', position: PAGE, direction: 1 });
    s = answer(s, cat);
    expect(s.request).toBeNull();
    expect(s.index).toBe(PAGE);
    expect(s.current?.id).toBe(100 - PAGE);
    expect(s.playing).toBe(true);
  });

  it('wraps at both ends across a window boundary', () => {
    const cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: 0 });
    s = run(s, { type: 'prev' });
    expect(s.request).toMatchObject({ kind: 'move', position: 99, direction: -1 });
    s = answer(s, cat);
    expect(s.index).toBe(99);
    expect(s.current?.id).toBe(1);
    // The window asked for going back ends at 99: previous needs no fetch now.
    s = run(s, { type: 'prev' });
    expect(s.index).toBe(98);
    s = run(s, { type: 'next' }, { type: 'next' });
    expect(s.index).toBe(0);
    expect(s.request).toBeNull();
    expect(s.current?.id).toBe(100);
  });

  it('skips positions this listener cannot play, fetching past them when needed', () => {
    const cat = catalogue(60);
    for (let p = 23; p < 30; p++) cat[p] = null;
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: 22 });
    s = answer(run(s, { type: 'next' }), cat);
    expect(s.index).toBe(30);
  });

  it('with shuffle reaches positions outside the window, never the current one', () => {
    const cat = catalogue(1000);
    const seen = new Set<number>();
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: 3 }, { type: 'toggleShuffle' });
    for (let i = 0; i < 200; i++) {
      const before = s.index;
      s = run(s, { type: 'next', random: (i * 0.618) % 1 });
      if (s.request) s = answer(s, cat);
      expect(s.index).not.toBe(before);
      expect(s.current?.id).toBe(1000 - s.index);
      seen.add(s.index);
    }
    expect([...seen].some((p) => p >= PAGE)).toBe(true);
    expect(seen.size).toBeGreaterThan(150);
    expect(Object.keys(s.queue.slots).length).toBeLessThanOrEqual(MAX_QUEUE_SLOTS);
  });

  it('with shuffle moves to the drawn-ahead position, which the provider prefetches', () => {
    const cat = catalogue(1000);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: 3 }, { type: 'toggleShuffle' });
    s = run(s, { type: 'drawShuffle', random: 0.5 });
    expect(s.shuffleNext).toBe(500);
    expect(prefetchNeeds(s)).toContainEqual({ position: 500, direction: 1 });
    s = run(s, prefetched(1000, 500, cat.slice(500, 524)));
    s = run(s, { type: 'next', random: 0.1 });
    expect(s.request).toBeNull();
    expect(s.index).toBe(500);
    expect(s.shuffleNext).toBeNull();
  });

  it('prefetches where next and previous would stop', () => {
    const cat = catalogue(100);
    const s = run(openPage(fresh(), cat), { type: 'playIndex', index: PAGE - 1 });
    expect(prefetchNeeds(s)).toEqual([{ position: PAGE, direction: 1 }]);
    const first = run(s, { type: 'playIndex', index: 0 });
    expect(prefetchNeeds(first)).toEqual([{ position: 99, direction: -1 }]);
  });

  it('a failed fetch leaves the player where it is', () => {
    const cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: PAGE - 1 });
    s = run(s, { type: 'next' });
    const id = s.request?.id ?? -1;
    s = run(s, { type: 'queueFailed', requestId: id });
    expect(s.request).toBeNull();
    expect(s.index).toBe(PAGE - 1);
    expect(s.playing).toBe(true);
  });

  it('the end of a track moves on across a window too', () => {
    const cat = catalogue(30);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: PAGE - 1 }, { type: 'pause' });
    s = answer(run(s, { type: 'ended' }), cat);
    expect(s.index).toBe(PAGE);
    expect(s.playing).toBe(true);
  });
});

describe('a catalogue that changed between fetches', () => {
  it('a track inserted: the move starts again from where the current track went', () => {
    let cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: PAGE - 1 });
    const playing = s.current?.id;
    s = run(s, { type: 'next' });
    cat = [track(500), ...cat]; // a new track, newest: every position moves one down
    s = answer(s, cat);
    expect(s.queue.size).toBe(101);
    // The window came from position 24, where the current track now is; next is the one after.
    expect(s.current?.id).not.toBe(playing);
    expect(s.current?.id).toBe(100 - PAGE);
    expect(s.index).toBe(PAGE + 1);
  });

  it('tracks deleted below the position: clamped, wrapped and fetched again', () => {
    let cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: 0 }, { type: 'prev' });
    expect(s.request).toMatchObject({ position: 99 });
    cat = cat.slice(0, 90); // ten tracks deleted meanwhile
    s = answer(s, cat);
    // Asked for 76..99, got 76..89 of 90: the catalogue's size is new, the walk goes on.
    expect(s.queue.size).toBe(90);
    if (s.request) s = answer(s, cat);
    expect(s.request).toBeNull();
    expect(s.index).toBe(89);
    expect(s.current?.id).toBe(cat[89]?.id);
  });

  it('a window with a new size replaces what was loaded (positions moved)', () => {
    const cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playIndex', index: 2 });
    s = run(s, prefetched(99, 50, cat.slice(51, 75)));
    expect(s.queue.size).toBe(99);
    expect(Object.keys(s.queue.slots)).toHaveLength(24);
    expect(s.current?.id).toBe(98);
    expect(s.index).toBe(2);
  });

  it('a window for a queue since replaced by a list is ignored', () => {
    const cat = catalogue(100);
    let s = openPage(fresh(), cat);
    s = run(s, { type: 'setQueue', tracks: [track(1), track(2)], index: 0, keepCurrent: false });
    const after = run(s, prefetched(100, 24, cat.slice(24, 48)));
    expect(after).toBe(s);
  });
});

describe('loading a track missing from the queue', () => {
  it('in a list: appends it and sets the index to it', () => {
    let s = run(fresh(), { type: 'setQueue', tracks: [track(1), track(2)], index: 0 });
    s = run(s, { type: 'load', track: track(9), autoplay: true });
    expect(queueTracks(s.queue).map((t) => t.id)).toEqual([1, 2, 9]);
    expect(s.index).toBe(2);
  });

  it('in the catalogue (a search result, another page): plays at once, then finds its position', () => {
    const cat = catalogue(100);
    let s = openPage(fresh(), cat);
    s = run(s, { type: 'playTrack', track: track(40) });
    expect(s.current?.id).toBe(40);
    expect(s.playing).toBe(true);
    expect(s.index).toBe(-1);
    expect(s.request).toMatchObject({ kind: 'locate', trackId: 40 });
    s = answer(s, cat);
    expect(s.index).toBe(60);
    expect(s.current?.id).toBe(40);
    s = run(s, { type: 'next' });
    expect(s.current?.id).toBe(39);
  });

  it('a current track not placed: next goes to the first position, previous to the last', () => {
    const cat = catalogue(100);
    let s = run(openPage(fresh(), cat), { type: 'playTrack', track: track(40) });
    s = run(s, { type: 'queueFailed', requestId: s.request?.id ?? 0 });
    expect(run(s, { type: 'next' }).index).toBe(0);
    expect(run(s, { type: 'prev' }).request).toMatchObject({ position: 99 });
  });
});

describe('persistence of the catalogue queue', () => {
  it('keeps the positions near the current one, and restores them', () => {
    const cat = catalogue(1000);
    let s = run(openPage(fresh(), cat, 3), { type: 'playIndex', index: 60 });
    s = run(s, prefetched(1000, 500, cat.slice(500, 524)));
    const saved = parsePersisted(JSON.stringify(toPersisted(s)));
    expect(saved?.queue.source).toBe('catalogue');
    expect(saved?.queue.size).toBe(1000);
    expect(Object.keys(saved?.queue.slots ?? {}).every((p) => Math.abs(Number(p) - 60) <= 24)).toBe(
      true,
    );
    const r = run(createInitialState(), { type: 'restore', saved });
    expect(r.index).toBe(60);
    expect(r.current?.id).toBe(940);
  });

  it('reads a queue saved by an earlier version (an array of tracks)', () => {
    const saved = parsePersisted(
      JSON.stringify({ queue: [track(1), track(2)], current: track(2), index: 1 }),
    );
    expect(saved?.queue).toMatchObject({ source: 'list', size: 2 });
    expect(run(createInitialState(), { type: 'restore', saved }).index).toBe(1);
  });
});
