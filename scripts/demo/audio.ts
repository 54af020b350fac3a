/**
 * Deterministic synthesis of the demo tracks with SoX (`sox -R`: repeatable noise and dither).
 *
 * Every track is built from a step sequencer: each layer (kick, hats, snare, bass, pad, arp) is
 * a concatenation of per-step sound files whose lengths are exact sample counts, so the layers
 * never drift against each other. The layers are then given their own effects (echo, reverb,
 * a small stereo offset), mixed with `sox -m`, faded, normalised and encoded to MP3 with
 * libmp3lame.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const SAMPLE_RATE = 44100;
export const MP3_KBPS = 96;

type Wave = 'sine' | 'square' | 'sawtooth' | 'triangle' | 'pluck';

/** A chord as MIDI note numbers (pad voicing); the first note is the bass root. */
type Chord = number[];

export type TrackRecipe = {
  slug: string;
  bpm: number;
  /** Target length in seconds; rounded to whole bars (multiple of 4). */
  seconds: number;
  progression: Chord[];
  kick: 'four' | 'half' | 'none';
  hats: 'offbeat' | 'eighths' | 'sixteenths' | 'none';
  snare: 'backbeat' | 'clap' | 'none';
  /** 8 eighth-note steps per bar: semitones above the chord root (bass octave), null = rest. */
  bass: (number | null)[] | null;
  bassWave: Wave;
  /** Arp: indexes into the chord tones (above the root), per step; null = rest. */
  arp: (number | null)[] | null;
  arpWave: Wave;
  /** 1 = sixteenths, 2 = eighths. */
  arpDivision: 1 | 2;
  padWave: Wave;
  padCutoff: number;
  reverb: number;
  /** Pad-only (and arp) intro bars before the beat comes in. */
  introBars: number;
  /** Bars, counted from the middle, where drums and bass drop out. */
  breakdownBars: number;
};

const midiHz = (n: number) => 440 * Math.pow(2, (n - 69) / 12);
const fmt = (n: number) => n.toFixed(3);

function sox(args: string[]) {
  execFileSync('sox', ['-R', '-V1', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

class Builder {
  private cache = new Map<string, string>();
  private counter = 0;
  constructor(private dir: string) {}

  file(name: string) {
    return path.join(this.dir, name);
  }

  /** Generates (once) a mono sound forced to exactly `samples` samples. */
  sound(key: string, samples: number, synth: string[], effects: string[] = [], channels = 1) {
    const cacheKey = `${key}|${samples}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const out = this.file(`s${this.counter++}.wav`);
    const len = samples / SAMPLE_RATE;
    sox([
      '-r',
      String(SAMPLE_RATE),
      '-c',
      String(channels),
      '-n',
      '-r',
      String(SAMPLE_RATE),
      out,
      'synth',
      fmt(len),
      ...synth,
      ...(channels > 1 ? ['remix', '-'] : []),
      ...effects,
      'pad',
      '0',
      `${samples}s`,
      'trim',
      '0',
      `${samples}s`,
    ]);
    this.cache.set(cacheKey, out);
    return out;
  }

  silence(samples: number) {
    return this.sound('silence', samples, ['sine', '1'], ['vol', '0']);
  }

  /** Concatenates files in order (in chunks, to keep command lines short). */
  concat(files: string[], name: string): string {
    const out = this.file(name);
    if (files.length === 1) {
      fs.copyFileSync(files[0], out);
      return out;
    }
    const chunk = 200;
    if (files.length <= chunk) {
      sox([...files, out]);
      return out;
    }
    const parts: string[] = [];
    for (let i = 0; i < files.length; i += chunk) {
      parts.push(this.concat(files.slice(i, i + chunk), `${name}.part${i}.wav`));
    }
    return this.concat(parts, name);
  }
}

type Layer = { file: string; volume: number; stereo?: boolean };

export function renderTrack(recipe: TrackRecipe, workDir: string, outFile: string) {
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(workDir, { recursive: true });
  const b = new Builder(workDir);

  const step = Math.round((SAMPLE_RATE * 15) / recipe.bpm); // one 16th note, in samples
  const beat = step * 4;
  const bar = beat * 4;
  const barSeconds = bar / SAMPLE_RATE;
  const bars = Math.max(8, Math.round(recipe.seconds / barSeconds / 4) * 4);
  const total = bars * bar;

  const breakdownStart = Math.floor(bars / 2 / 4) * 4 + 2;
  const inBreakdown = (i: number) =>
    i >= breakdownStart && i < breakdownStart + recipe.breakdownBars;
  const drumsOn = (i: number) => i >= recipe.introBars && !inBreakdown(i) && i < bars - 1;
  const bassOn = (i: number) => i >= recipe.introBars && !inBreakdown(i) && i < bars - 1;
  const arpOn = (i: number) => i >= Math.max(0, recipe.introBars - 2) && i < bars - 1;
  const chordAt = (i: number) => recipe.progression[i % recipe.progression.length];

  // --- Drum sounds --------------------------------------------------------------------------
  const kickLen = Math.min(beat, Math.round(SAMPLE_RATE * 0.42));
  const kickHit = b.sound(
    'kick',
    beat,
    ['sine', '150/42'],
    ['fade', 'q', '0.002', fmt(kickLen / SAMPLE_RATE), fmt((kickLen / SAMPLE_RATE) * 0.85)],
  );
  const hatHit = b.sound(
    'hat',
    step,
    ['noise'],
    ['highpass', '7500', 'fade', 'q', '0.001', '0.045', '0.04', 'vol', '0.55'],
  );
  const openHat = b.sound(
    'openhat',
    step * 2,
    ['noise'],
    [
      'highpass',
      '6000',
      'fade',
      'q',
      '0.001',
      fmt(Math.min(0.2, (step * 2) / SAMPLE_RATE)),
      '0.16',
    ],
  );
  const snareHit =
    recipe.snare === 'clap'
      ? b.sound(
          'clap',
          beat,
          ['noise'],
          ['bandpass', '1400', '900h', 'fade', 'q', '0.003', '0.22', '0.2', 'reverb', '30'],
        )
      : b.sound(
          'snare',
          beat,
          ['noise', 'sine', '190'],
          ['lowpass', '5000', 'fade', 'q', '0.002', '0.26', '0.24', 'reverb', '45'],
          2,
        );

  const stepSilence = b.silence(step);
  const beatSilence = b.silence(beat);
  const barSilence = b.silence(bar);

  // --- Drum layers --------------------------------------------------------------------------
  const kickBar = b.concat(
    [0, 1, 2, 3].map((i) =>
      recipe.kick === 'four' || (recipe.kick === 'half' && i % 2 === 0) ? kickHit : beatSilence,
    ),
    'kickbar.wav',
  );
  const hatSteps: string[] = [];
  for (let i = 0; i < 16; i++) {
    if (recipe.hats === 'sixteenths') hatSteps.push(hatHit);
    else if (recipe.hats === 'eighths') hatSteps.push(i % 2 === 0 ? hatHit : stepSilence);
    else if (recipe.hats === 'offbeat') {
      if (i % 4 === 2) {
        hatSteps.push(openHat);
        i++; // the open hat spans two steps
      } else hatSteps.push(i % 4 === 0 ? stepSilence : hatHit);
    } else hatSteps.push(stepSilence);
  }
  const hatBar = b.concat(hatSteps, 'hatbar.wav');
  const snareBar = b.concat(
    [0, 1, 2, 3].map((i) => (recipe.snare !== 'none' && i % 2 === 1 ? snareHit : beatSilence)),
    'snarebar.wav',
  );

  const layers: Layer[] = [];
  if (recipe.kick !== 'none') {
    layers.push({
      file: b.concat(
        Array.from({ length: bars }, (_, i) => (drumsOn(i) ? kickBar : barSilence)),
        'kick.wav',
      ),
      volume: 0.95,
    });
  }
  if (recipe.hats !== 'none') {
    layers.push({
      file: b.concat(
        Array.from({ length: bars }, (_, i) =>
          drumsOn(i) || inBreakdown(i) ? hatBar : barSilence,
        ),
        'hats.wav',
      ),
      volume: 0.35,
    });
  }
  if (recipe.snare !== 'none') {
    layers.push({
      file: b.concat(
        Array.from({ length: bars }, (_, i) => (drumsOn(i) ? snareBar : barSilence)),
        'snare.wav',
      ),
      volume: 0.45,
    });
  }

  // --- Bass -------------------------------------------------------------------------------
  if (recipe.bass) {
    const pattern = recipe.bass;
    const bassSteps: string[] = [];
    for (let i = 0; i < bars; i++) {
      const root = chordAt(i)[0] - 12;
      for (let s = 0; s < 8; s++) {
        const offset = pattern[s % pattern.length];
        if (!bassOn(i) || offset === null) {
          bassSteps.push(b.silence(step * 2));
          continue;
        }
        const note = root + offset;
        const len = (step * 2) / SAMPLE_RATE;
        bassSteps.push(
          b.sound(
            `bass${note}`,
            step * 2,
            [recipe.bassWave, fmt(midiHz(note))],
            ['lowpass', '520', 'fade', 'q', '0.004', fmt(len * 0.92), fmt(len * 0.35)],
          ),
        );
      }
    }
    layers.push({
      file: b.concat(bassSteps, 'bass.wav'),
      volume: recipe.bassWave === 'sine' ? 0.9 : 0.6,
    });
  }

  // --- Pad (one sustained, detuned chord per bar) --------------------------------------------
  const padBars: string[] = [];
  for (let i = 0; i < bars; i++) {
    const chord = chordAt(i);
    const voices: string[] = [];
    for (const note of chord) {
      voices.push(
        recipe.padWave,
        fmt(midiHz(note) * 0.997),
        recipe.padWave,
        fmt(midiHz(note) * 1.003),
      );
    }
    padBars.push(
      b.sound(
        `pad${chord.join('-')}`,
        bar,
        voices,
        ['lowpass', String(recipe.padCutoff), 'fade', 'h', '0.25', fmt(barSeconds), '0.35'],
        voices.length / 2,
      ),
    );
  }
  const padRaw = b.concat(padBars, 'pad_raw.wav');
  const pad = b.file('pad.wav');
  sox([
    padRaw,
    '-c',
    '2',
    pad,
    'remix',
    '1',
    '1',
    'reverb',
    String(recipe.reverb),
    '50',
    '100',
    '100',
    '0',
    '2',
    'delay',
    '0',
    '0.017',
  ]);
  layers.push({ file: pad, volume: 0.55, stereo: true });

  // --- Arpeggio -----------------------------------------------------------------------------
  if (recipe.arp) {
    const pattern = recipe.arp;
    const unit = step * recipe.arpDivision;
    const perBar = 16 / recipe.arpDivision;
    const arpSteps: string[] = [];
    for (let i = 0; i < bars; i++) {
      const tones = chordAt(i).slice(1);
      for (let s = 0; s < perBar; s++) {
        const idx = pattern[s % pattern.length];
        if (!arpOn(i) || idx === null) {
          arpSteps.push(b.silence(unit));
          continue;
        }
        const note = tones[idx % tones.length] + 12 * Math.floor(idx / tones.length);
        const len = unit / SAMPLE_RATE;
        const effects =
          recipe.arpWave === 'pluck'
            ? ['fade', 'q', '0.002', fmt(len), fmt(len * 0.5)]
            : ['lowpass', '2600', 'fade', 'q', '0.003', fmt(len), fmt(len * 0.8)];
        arpSteps.push(b.sound(`arp${note}`, unit, [recipe.arpWave, fmt(midiHz(note))], effects));
      }
    }
    const arpRaw = b.concat(arpSteps, 'arp_raw.wav');
    const arp = b.file('arp.wav');
    const dottedEighth = fmt(((step * 3) / SAMPLE_RATE) * 1000);
    sox([
      arpRaw,
      '-c',
      '2',
      arp,
      'remix',
      '1',
      '1',
      'echo',
      '0.8',
      '0.75',
      dottedEighth,
      '0.35',
      'reverb',
      '40',
      'delay',
      '0.011',
      '0',
    ]);
    layers.push({ file: arp, volume: 0.4, stereo: true });
  }

  // --- Mix, master, encode ------------------------------------------------------------------
  const mix = b.file('mix.wav');
  const inputs: string[] = [];
  layers.forEach((layer, i) => {
    let file = layer.file;
    if (!layer.stereo) {
      // Mono drum and bass layers are centred in the stereo image.
      file = b.file(`layer${i}_st.wav`);
      sox([layer.file, '-c', '2', file, 'remix', '1', '1']);
    }
    inputs.push('-v', String(layer.volume), file);
  });
  sox(['-m', ...inputs, mix]);

  const totalSeconds = total / SAMPLE_RATE;
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  sox([
    mix,
    '-C',
    String(MP3_KBPS),
    '-r',
    String(SAMPLE_RATE),
    outFile,
    'trim',
    '0',
    `${total}s`,
    'highpass',
    '30',
    'fade',
    'q',
    '1.5',
    fmt(totalSeconds),
    '3.5',
    'norm',
    '-3',
  ]);
  fs.rmSync(workDir, { recursive: true, force: true });
  return { seconds: totalSeconds, bars };
}
