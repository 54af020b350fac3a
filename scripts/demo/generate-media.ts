/**
 * Regenerates every demo media file, deterministically:
 *
 *   npx tsx scripts/demo/generate-media.ts            # audio + images
 *   npx tsx scripts/demo/generate-media.ts --audio    # audio only
 *   npx tsx scripts/demo/generate-media.ts --images   # images only
 *   npx tsx scripts/demo/generate-media.ts --mix      # the demo mix and its cover only
 *
 * Needs SoX with MP3 support (Debian: `apt-get install -y sox libsox-fmt-mp3`) and sharp.
 * Writes demo/media/{audio,covers,gallery,blog,about}/*, demo/media/hero.jpg,
 * uploads/audio/fallback.mp3 and the public/ icons, placeholder and OG image, then checks
 * that every file named in scripts/demo/content.ts exists and prints sizes and durations.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MP3_KBPS, renderTrack, type TrackRecipe } from './audio';
import { aboutPhotos, demoGallery, demoPosts, demoTracks, heroImage } from './content';
import {
  icoFromPngs,
  logoSvg,
  type Palette,
  palettes,
  pngBuffer,
  renderJpeg,
  renderPng,
  type Scene,
  scene,
  vinylSvg,
} from './images';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MEDIA = path.join(ROOT, 'demo/media');
const PUBLIC = path.join(ROOT, 'public');
const FALLBACK = path.join(ROOT, 'uploads/audio/fallback.mp3');

// --- Music ---------------------------------------------------------------------------------

/** A chord: the bass root, then the given intervals one octave above it. */
const chord = (root: number, intervals: number[]) => [root, ...intervals.map((i) => root + 12 + i)];
const MIN7 = [0, 3, 7, 10];
const MIN = [0, 3, 7];
const MAJ = [0, 4, 7];
const MAJ7 = [0, 4, 7, 11];
const MIN9 = [3, 7, 10, 14];
const DOM7 = [0, 4, 7, 10];
const SUS2 = [0, 2, 7];

const recipes: Record<string, TrackRecipe> = {
  // Synthwave, A minor, 100 BPM: driving octave bass, 16th square arp.
  'ocean-avenue-3am': {
    slug: 'ocean-avenue-3am',
    bpm: 100,
    seconds: 38,
    progression: [chord(45, MIN7), chord(53, MAJ), chord(48, MAJ), chord(55, MAJ)],
    kick: 'four',
    hats: 'eighths',
    snare: 'backbeat',
    bass: [0, 0, 12, 0, 0, 12, 0, 12],
    bassWave: 'sawtooth',
    arp: [0, 1, 2, 3, 2, 1, 0, 1],
    arpWave: 'square',
    arpDivision: 1,
    padWave: 'sawtooth',
    padCutoff: 1400,
    reverb: 60,
    introBars: 4,
    breakdownBars: 2,
  },
  // Synthwave, F# minor, 108 BPM: galloping octaves, plucked arp.
  'neon-boardwalk': {
    slug: 'neon-boardwalk',
    bpm: 108,
    seconds: 36,
    progression: [chord(54, MIN), chord(50, MAJ), chord(45, MAJ), chord(52, MAJ)],
    kick: 'four',
    hats: 'sixteenths',
    snare: 'backbeat',
    bass: [0, 12, 0, 12, 0, 12, 0, 12],
    bassWave: 'square',
    arp: [0, 2, 1, 3, 0, 2, 1, 3],
    arpWave: 'pluck',
    arpDivision: 1,
    padWave: 'sawtooth',
    padCutoff: 1800,
    reverb: 55,
    introBars: 4,
    breakdownBars: 2,
  },
  // Deep house, D minor, 122 BPM: off-beat open hats, clap, sine bass, minor ninths.
  'convention-hall': {
    slug: 'convention-hall',
    bpm: 122,
    seconds: 40,
    progression: [chord(50, MIN9), chord(55, MIN9), chord(46, MAJ7), chord(45, DOM7)],
    kick: 'four',
    hats: 'offbeat',
    snare: 'clap',
    bass: [null, 0, null, 0, null, 0, 12, null],
    bassWave: 'sine',
    arp: [0, null, 2, null, 1, null, 3, null],
    arpWave: 'pluck',
    arpDivision: 2,
    padWave: 'triangle',
    padCutoff: 2200,
    reverb: 70,
    introBars: 4,
    breakdownBars: 4,
  },
  // Deep house, G minor, 120 BPM: syncopated sine bass, bell-like sine arp.
  'saltwater-signals': {
    slug: 'saltwater-signals',
    bpm: 120,
    seconds: 40,
    progression: [chord(55, MIN7), chord(51, MAJ7), chord(48, MIN7), chord(50, DOM7)],
    kick: 'four',
    hats: 'offbeat',
    snare: 'clap',
    bass: [0, null, 0, 12, null, 0, null, 7],
    bassWave: 'sine',
    arp: [0, null, 1, 2, null, 3, null, 1],
    arpWave: 'sine',
    arpDivision: 1,
    padWave: 'sawtooth',
    padCutoff: 1000,
    reverb: 75,
    introBars: 4,
    breakdownBars: 2,
  },
  // Ambient techno, E minor, 118 BPM: no snare, 3-against-4 pluck, soft sine pads.
  'low-tide-static': {
    slug: 'low-tide-static',
    bpm: 118,
    seconds: 40,
    progression: [chord(52, MIN), chord(48, MAJ7), chord(45, MIN7), chord(47, MIN)],
    kick: 'four',
    hats: 'sixteenths',
    snare: 'none',
    bass: [0, null, null, 0, null, null, 0, null],
    bassWave: 'square',
    arp: [0, 1, 2],
    arpWave: 'pluck',
    arpDivision: 1,
    padWave: 'sine',
    padCutoff: 900,
    reverb: 90,
    introBars: 4,
    breakdownBars: 2,
  },
  // Slow remix, C minor, 96 BPM: eighth-note plucks, heavy reverb.
  'palace-lights-remix': {
    slug: 'palace-lights-remix',
    bpm: 96,
    seconds: 40,
    progression: [chord(48, MIN7), chord(44, MAJ7), chord(51, MAJ), chord(46, SUS2)],
    kick: 'four',
    hats: 'eighths',
    snare: 'clap',
    bass: [0, null, 0, null, 0, 12, null, 0],
    bassWave: 'sawtooth',
    arp: [0, 1, 2, 1, 3, 2, 1, 0],
    arpWave: 'pluck',
    arpDivision: 2,
    padWave: 'sawtooth',
    padCutoff: 1200,
    reverb: 80,
    introBars: 4,
    breakdownBars: 2,
  },
  // Ambient live set, C major, 84 BPM: half-time kick, long pads, sparse bass.
  'atlantic-at-dawn-live': {
    slug: 'atlantic-at-dawn-live',
    bpm: 84,
    seconds: 38,
    progression: [chord(48, MAJ7), chord(45, MIN9), chord(53, MAJ7), chord(55, SUS2)],
    kick: 'half',
    hats: 'none',
    snare: 'none',
    bass: [0, null, null, null, 7, null, null, null],
    bassWave: 'sine',
    arp: [0, 2, 1, 3, 2, 0, 3, 1],
    arpWave: 'pluck',
    arpDivision: 2,
    padWave: 'triangle',
    padCutoff: 2500,
    reverb: 95,
    introBars: 2,
    breakdownBars: 0,
  },
};

/** The player's fallback: a calm 30-second pad in D major (8 bars at 64 BPM). */
const fallbackRecipe: TrackRecipe = {
  slug: 'fallback',
  bpm: 64,
  seconds: 30,
  progression: [chord(50, MAJ7), chord(47, MIN7), chord(55, MAJ7), chord(45, SUS2)],
  kick: 'none',
  hats: 'none',
  snare: 'none',
  bass: null,
  bassWave: 'sine',
  arp: [0, null, 2, null, 1, null, 3, null],
  arpWave: 'sine',
  arpDivision: 2,
  padWave: 'triangle',
  padCutoff: 1800,
  reverb: 95,
  introBars: 2,
  breakdownBars: 0,
};

// --- Artwork -------------------------------------------------------------------------------

type Art = { scene: Scene; palette: Palette; variant?: number };

const covers: Record<string, Art> = {
  'ocean-avenue-3am': { scene: 'night-drive', palette: palettes.synthwave },
  'neon-boardwalk': { scene: 'boardwalk', palette: palettes.violet },
  'convention-hall': { scene: 'rings', palette: palettes.deepTeal },
  'saltwater-signals': { scene: 'waves', palette: palettes.deepTeal, variant: 1 },
  'low-tide-static': { scene: 'pier', palette: palettes.ice },
  'palace-lights-remix': { scene: 'sunset-grid', palette: palettes.crimson, variant: 1 },
  'atlantic-at-dawn-live': { scene: 'sunrise', palette: palettes.dawn },
  'night-shore-mix': { scene: 'rings', palette: palettes.violet, variant: 1 },
};

const gallery: Record<string, Art> = {
  'crowd-warehouse.jpg': { scene: 'crowd', palette: palettes.synthwave },
  'boardwalk-midnight.jpg': { scene: 'boardwalk', palette: palettes.deepTeal },
  'studio-modular.jpg': { scene: 'studio', palette: palettes.violet },
  'band-silhouettes.jpg': { scene: 'band', palette: palettes.amber },
  'beach-sunrise.jpg': { scene: 'sunrise', palette: palettes.dawn },
  'neon-sign.jpg': { scene: 'neon-sign', palette: palettes.synthwave },
  'night-drive.jpg': { scene: 'night-drive', palette: palettes.amber },
  'pier-lights.jpg': { scene: 'pier', palette: palettes.violet },
};

const blog: Record<string, Art> = {
  'album-release.jpg': { scene: 'sunset-grid', palette: palettes.synthwave },
  'summer-shows.jpg': { scene: 'crowd', palette: palettes.crimson },
  'studio-process.jpg': { scene: 'studio', palette: palettes.deepTeal },
  'remix-review.jpg': { scene: 'rings', palette: palettes.crimson },
  'carousel-review.jpg': { scene: 'sunrise', palette: palettes.ice },
  'release-party.jpg': { scene: 'neon-sign', palette: palettes.amber },
};

const about: Record<string, Art> = {
  'studio-night.jpg': { scene: 'studio', palette: palettes.synthwave },
  'on-stage.jpg': { scene: 'band', palette: palettes.violet },
  'boardwalk-crew.jpg': { scene: 'boardwalk', palette: palettes.amber },
};

/** A stable per-name seed, so adding an image does not change the others. */
function seedOf(name: string) {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

async function renderSet(
  dir: string,
  items: Record<string, Art>,
  w: number,
  h: number,
  { clear = true } = {},
) {
  // No stale files from older manifests (`clear: false` adds to the set instead).
  if (clear) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, art] of Object.entries(items)) {
    const seed = seedOf(name);
    const file = name.endsWith('.jpg') ? name : `${name}.jpg`;
    const svg = scene(art.scene, w, h, { palette: art.palette, seed, variant: art.variant });
    await renderJpeg(svg, w, h, path.join(dir, file), { seed, grain: 7, quality: 78 });
  }
}

function ogSvg() {
  const base = scene('sunset-grid', 1200, 630, {
    palette: palettes.synthwave,
    seed: 7,
    variant: 1,
  });
  const wordmark = `<rect x="0" y="0" width="1200" height="630" fill="#05010d" opacity="0.25"/>
<g font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#ffffff">
<text x="600" y="150" font-size="96" letter-spacing="18" filter="url(#glow)">NIGHT SHORE</text>
<text x="600" y="205" font-size="30" letter-spacing="10" fill="#21d4fd">ASBURY PARK · NEW JERSEY</text>
</g>`;
  return base.replace('</svg>', `${wordmark}\n</svg>`);
}

async function renderImages() {
  await renderSet(path.join(MEDIA, 'covers'), covers, 1200, 1200);
  await renderSet(path.join(MEDIA, 'gallery'), gallery, 1600, 1067);
  await renderSet(path.join(MEDIA, 'blog'), blog, 1600, 900);
  await renderSet(path.join(MEDIA, 'about'), about, 1200, 900);

  const heroSvg = scene('sunset-grid', 1920, 1080, {
    palette: palettes.synthwave,
    seed: seedOf(heroImage),
  });
  await renderJpeg(heroSvg, 1920, 1080, path.join(MEDIA, heroImage), {
    seed: seedOf(heroImage),
    grain: 3,
    quality: 70,
  });

  fs.mkdirSync(PUBLIC, { recursive: true });
  await renderJpeg(vinylSvg(600), 600, 600, path.join(PUBLIC, 'placeholder-album.jpg'), {
    seed: 1,
    grain: 4,
    quality: 80,
  });
  await renderJpeg(ogSvg(), 1200, 630, path.join(PUBLIC, 'og-default.jpg'), {
    seed: 2,
    grain: 4,
    quality: 80,
  });
  fs.writeFileSync(path.join(PUBLIC, 'favicon.svg'), logoSvg(512));
  const sizes = [16, 32, 48];
  const pngs = await Promise.all(
    sizes.map(async (size) => ({ size, png: await pngBuffer(logoSvg(512), size) })),
  );
  fs.writeFileSync(path.join(PUBLIC, 'favicon.ico'), icoFromPngs(pngs));
  // iOS applies its own rounded mask, so the touch icon is a full square.
  await renderPng(logoSvg(512, false), 180, path.join(PUBLIC, 'apple-touch-icon.png'));
}

/** The demo mix: these demo tracks back to back (its tracklist in content.ts follows them). */
const MIX_FILE = 'night-shore-mix.mp3';
const MIX_ORDER = [
  'saltwater-signals',
  'ocean-avenue-3am',
  'neon-boardwalk',
  'convention-hall',
  'low-tide-static',
  'palace-lights-remix',
  'atlantic-at-dawn-live',
];

/** Concatenates the rendered demo tracks into the demo mix (re-encoded once, as the tracks). */
function renderMix() {
  const inputs = MIX_ORDER.map((slug) => path.join(MEDIA, 'audio', `${slug}.mp3`));
  sox([...inputs, '-C', String(MP3_KBPS), path.join(MEDIA, 'audio', MIX_FILE)]);
  console.log(
    `  audio ${MIX_FILE}: ${soxiSeconds(path.join(MEDIA, 'audio', MIX_FILE)).toFixed(1)} s`,
  );
}

function sox(args: string[]) {
  execFileSync('sox', ['-R', '-V1', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

function renderAudio() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'night-shore-audio-'));
  fs.rmSync(path.join(MEDIA, 'audio'), { recursive: true, force: true });
  try {
    for (const recipe of Object.values(recipes)) {
      const out = path.join(MEDIA, 'audio', `${recipe.slug}.mp3`);
      const { seconds } = renderTrack(recipe, path.join(work, recipe.slug), out);
      console.log(`  audio ${recipe.slug}: ${seconds.toFixed(1)} s`);
    }
    renderMix();
    renderTrack(fallbackRecipe, path.join(work, 'fallback'), FALLBACK);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// --- Verification --------------------------------------------------------------------------

function soxiSeconds(file: string) {
  return Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }).trim());
}

function verify() {
  const problems: string[] = [];
  const need = (file: string) => {
    if (!fs.existsSync(file)) problems.push(`missing ${path.relative(ROOT, file)}`);
  };
  for (const t of demoTracks) {
    need(path.join(MEDIA, 'audio', t.audio));
    need(path.join(MEDIA, 'covers', t.cover));
  }
  for (const g of demoGallery) need(path.join(MEDIA, 'gallery', g.file));
  for (const post of demoPosts) need(path.join(MEDIA, 'blog', post.image));
  for (const a of aboutPhotos) need(path.join(MEDIA, 'about', a));
  need(path.join(MEDIA, heroImage));
  need(FALLBACK);
  if (problems.length) throw new Error(`Demo media incomplete:\n${problems.join('\n')}`);

  const mixes = demoTracks.filter((t) => t.audio === MIX_FILE);
  const mp3s = [
    ...demoTracks
      .filter((t) => t.audio !== MIX_FILE)
      .map((t) => path.join(MEDIA, 'audio', t.audio)),
    FALLBACK,
  ];
  for (const t of mixes) {
    // The mix is the tracks back to back: its length is theirs (within a frame per track).
    const file = path.join(MEDIA, 'audio', t.audio);
    const want = MIX_ORDER.reduce(
      (sum, slug) => sum + soxiSeconds(path.join(MEDIA, 'audio', `${slug}.mp3`)),
      0,
    );
    if (Math.abs(soxiSeconds(file) - want) > 0.5) {
      throw new Error(`${path.relative(ROOT, file)}: ${soxiSeconds(file)} s, want ${want} s`);
    }
  }
  for (const file of mp3s) {
    const seconds = soxiSeconds(file);
    const type = execFileSync('soxi', ['-t', file], { encoding: 'utf8' }).trim();
    if (type !== 'mp3' || seconds < 30 || seconds > 45) {
      throw new Error(
        `${path.relative(ROOT, file)}: type ${type}, ${seconds} s (want mp3, 30-45 s)`,
      );
    }
  }

  const list = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? list(full) : [full];
    });
  const files = [
    ...list(MEDIA),
    FALLBACK,
    ...[
      'placeholder-album.jpg',
      'og-default.jpg',
      'favicon.svg',
      'favicon.ico',
      'apple-touch-icon.png',
    ].map((f) => path.join(PUBLIC, f)),
  ].sort();
  let mediaTotal = 0;
  for (const file of files) {
    const size = fs.statSync(file).size;
    if (file.startsWith(MEDIA)) mediaTotal += size;
    const extra = file.endsWith('.mp3') ? `  ${soxiSeconds(file).toFixed(2)} s` : '';
    console.log(`${(size / 1024).toFixed(0).padStart(6)} KB  ${path.relative(ROOT, file)}${extra}`);
  }
  console.log(`demo/media total: ${(mediaTotal / 1024 / 1024).toFixed(2)} MB`);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--mix')) {
    // Only the demo mix and its cover, from the tracks already rendered.
    console.log('Building the demo mix with SoX...');
    renderMix();
    await renderSet(
      path.join(MEDIA, 'covers'),
      { 'night-shore-mix': covers['night-shore-mix'] },
      1200,
      1200,
      { clear: false },
    );
    verify();
    return;
  }
  const audio = !args.includes('--images');
  const images = !args.includes('--audio');
  if (audio) {
    console.log('Synthesising audio with SoX...');
    renderAudio();
  }
  if (images) {
    console.log('Rendering images with sharp...');
    await renderImages();
  }
  verify();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
