/**
 * The embed's own script (decision 038), built by scripts/build-embed.ts into
 * public/build/embed/ (budget: 12 KB gzipped, checked by tests/e2e/embed.spec.ts). It runs in
 * a frame that may be sandboxed without same-origin access: no cookie, no storage, only the
 * `<audio>` of this page and one count-only beacon. Not bundled with the site: no React.
 */
import { PLAY_AFTER_SECONDS } from '~/types/constants';
import type { EmbedData, EmbedTrack } from '~/types/embed';
import { formatClock } from '~/utils/media-time';
import { levelsShape } from '~/utils/waveform-levels';
import { WAVEFORM_HEIGHT } from '~/utils/waveform-path';

const ICON_PLAY = '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2l10 6-10 6z"/></svg>';
const ICON_PAUSE =
  '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2h4v12H3zM9 2h4v12H9z"/></svg>';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

function start(): void {
  const dataNode = $('embed-data');
  if (!dataNode?.textContent) return;
  const data = JSON.parse(dataNode.textContent) as EmbedData;
  let index = 0;
  let pendingStart = data.start;
  let heard = 0;
  let lastTime = 0;
  let reported = false;
  // The waveform's columns (its viewBox width), and whether the seek bar is being dragged.
  let columns = 1;
  let dragging = false;

  const audio = $<HTMLAudioElement>('audio');
  const play = $<HTMLButtonElement>('play');
  const seek = $<HTMLInputElement>('seek');
  const time = $('time');
  const seekBox = $('seekbox');
  const wavePath = $('wave-path');
  const played = $('wave-progress');
  const list = document.querySelectorAll<HTMLButtonElement>('li button');

  const current = (): EmbedTrack | undefined => data.tracks[index];
  const duration = () =>
    audio && Number.isFinite(audio.duration) ? audio.duration : (current()?.duration ?? 0);

  function report(): void {
    const track = current();
    if (reported || !track) return;
    reported = true;
    // A CORS request without credentials: from a sandboxed frame its Origin is `null`, which
    // the trust boundary accepts for this endpoint only.
    void fetch(data.beacon, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(
        data.token ? { trackId: track.id, embed: data.token } : { trackId: track.id },
      ),
    }).catch(() => undefined);
  }

  function paintTime(): void {
    if (!audio || !seek || !time) return;
    const now = pendingStart || audio.currentTime;
    const total = duration();
    seek.max = String(Math.floor(total));
    if (!dragging) seek.value = String(Math.floor(now));
    played?.setAttribute('width', String(total > 0 ? (columns * Math.min(now, total)) / total : 0));
    const text = `${formatClock(now)} / ${formatClock(total)}`;
    time.textContent = text;
    seek.setAttribute('aria-valuetext', `${formatClock(now)} of ${formatClock(total)}`);
  }

  function paintButton(): void {
    const track = current();
    if (!play || !audio || !track) return;
    const playing = !audio.paused;
    play.innerHTML = playing ? ICON_PAUSE : ICON_PLAY;
    play.setAttribute('aria-label', `${playing ? 'Pause' : 'Play'} ${track.title}`);
  }

  /** The track's waveform in the seek bar, or the plain bar when it has none. */
  function paintWave(track: EmbedTrack): void {
    const shape = track.wave ? levelsShape(track.wave) : null;
    seekBox?.classList.toggle('wave', Boolean(shape && wavePath));
    if (!shape || !wavePath) return;
    columns = shape.columns;
    wavePath.setAttribute('d', shape.d);
    wavePath.parentElement?.parentElement?.setAttribute(
      'viewBox',
      `0 0 ${columns} ${WAVEFORM_HEIGHT}`,
    );
  }

  function show(i: number): void {
    const track = data.tracks[i];
    if (!track) return;
    index = i;
    heard = 0;
    lastTime = 0;
    reported = false;
    const set = (id: string, text: string) => {
      const node = $(id);
      if (node) node.textContent = text;
    };
    set('title', track.title);
    set('artist', track.artist);
    $<HTMLImageElement>('cover')?.setAttribute('src', track.cover);
    $<HTMLAnchorElement>('page')?.setAttribute('href', track.page);
    list.forEach((b, j) => b.setAttribute('aria-current', String(j === i)));
    paintWave(track);
  }

  function toggle(): void {
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => paintButton());
    else audio.pause();
  }

  function choose(i: number): void {
    const track = data.tracks[i];
    if (!track) return;
    if (!track.src) {
      // Locked: the track page, in a new tab (its audio is never given to the embed). A stream
      // still being made (or failed) plays nowhere yet.
      if (track.locked) window.open(track.page, '_blank', 'noopener');
      return;
    }
    if (!audio) return;
    show(i);
    pendingStart = 0;
    audio.src = track.src;
    void audio.play().catch(() => paintButton());
  }

  list.forEach((button, i) => button.addEventListener('click', () => choose(i)));
  if (!audio || !play || !seek) return;

  play.addEventListener('click', toggle);
  // While a pointer drags the bar, playback does not move it under the pointer.
  seek.addEventListener('pointerdown', () => (dragging = true));
  document.addEventListener('pointerup', () => (dragging = false));
  seek.addEventListener('input', () => {
    pendingStart = 0;
    const to = Number(seek.value);
    if (audio.readyState > 0) audio.currentTime = to;
    else pendingStart = to;
    lastTime = to;
    paintTime();
  });
  audio.addEventListener('loadedmetadata', () => {
    if (pendingStart > 0 && pendingStart < audio.duration) audio.currentTime = pendingStart;
    lastTime = audio.currentTime;
    pendingStart = 0;
    paintTime();
  });
  audio.addEventListener('timeupdate', () => {
    const step = audio.currentTime - lastTime;
    // Time actually heard: a seek (a jump) does not count (decision 024).
    if (step > 0 && step < 2) heard += step;
    lastTime = audio.currentTime;
    if (heard >= PLAY_AFTER_SECONDS) report();
    paintTime();
  });
  audio.addEventListener('play', paintButton);
  audio.addEventListener('pause', paintButton);
  audio.addEventListener('ended', () => {
    report();
    const next = data.tracks.findIndex((t, j) => j > index && t.src);
    if (next > 0) choose(next);
    else paintButton();
  });
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    if (target && /^(BUTTON|INPUT|A)$/.test(target.tagName)) return;
    if (event.key === ' ' || event.key === 'k') {
      event.preventDefault();
      toggle();
    }
  });
  const first = current();
  if (first) paintWave(first);
  paintTime();
}

start();
