/**
 * Deterministic SVG scenes for the demo artwork (covers, gallery, blog, about, hero, icons).
 *
 * Everything is drawn with shapes and gradients (no fonts except the OG card's generic
 * sans-serif wordmark), rasterised by sharp (librsvg), given a seeded film grain and encoded
 * with mozjpeg.
 */
import sharp from 'sharp';

// --- Seeded randomness ---------------------------------------------------------------------

export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const r1 = (n: number) => Math.round(n * 10) / 10;

export type Palette = {
  skyTop: string;
  skyMid: string;
  skyLow: string;
  sunTop: string;
  sunBottom: string;
  sea: string;
  neon: string;
  neon2: string;
  ink: string;
};

export const palettes: Record<string, Palette> = {
  synthwave: {
    skyTop: '#0b0221',
    skyMid: '#3a0d5c',
    skyLow: '#ff3d7f',
    sunTop: '#ffe66d',
    sunBottom: '#ff2e88',
    sea: '#12052b',
    neon: '#ff2e88',
    neon2: '#21d4fd',
    ink: '#07010f',
  },
  deepTeal: {
    skyTop: '#01121c',
    skyMid: '#063a4f',
    skyLow: '#1fb5a8',
    sunTop: '#d8fff5',
    sunBottom: '#38d6c4',
    sea: '#021a24',
    neon: '#3cf2d0',
    neon2: '#ff7ac6',
    ink: '#010a10',
  },
  amber: {
    skyTop: '#120714',
    skyMid: '#5b1a3a',
    skyLow: '#ff8a3d',
    sunTop: '#fff3b0',
    sunBottom: '#ff6b35',
    sea: '#1c0a1a',
    neon: '#ffb347',
    neon2: '#ff4f79',
    ink: '#0a0308',
  },
  violet: {
    skyTop: '#05041a',
    skyMid: '#221a66',
    skyLow: '#8a5cff',
    sunTop: '#f5e1ff',
    sunBottom: '#b36bff',
    sea: '#080624',
    neon: '#b36bff',
    neon2: '#4df3ff',
    ink: '#03020d',
  },
  dawn: {
    skyTop: '#1d2b53',
    skyMid: '#7e5a9b',
    skyLow: '#ffb38a',
    sunTop: '#fffbe6',
    sunBottom: '#ffd07a',
    sea: '#263a5e',
    neon: '#ffd6a5',
    neon2: '#9ad0ff',
    ink: '#0e1630',
  },
  crimson: {
    skyTop: '#0a0006',
    skyMid: '#4a0020',
    skyLow: '#ff1f4b',
    sunTop: '#ffd1dc',
    sunBottom: '#ff1f4b',
    sea: '#13000a',
    neon: '#ff1f4b',
    neon2: '#ffd166',
    ink: '#050003',
  },
  ice: {
    skyTop: '#020814',
    skyMid: '#0d2a4a',
    skyLow: '#5fa8d3',
    sunTop: '#ffffff',
    sunBottom: '#a9d6ff',
    sea: '#041224',
    neon: '#7fdbff',
    neon2: '#c792ff',
    ink: '#01050c',
  },
};

// --- SVG primitives ------------------------------------------------------------------------

function svg(w: number, h: number, defs: string, body: string) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs>${defs}
<filter id="glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="6" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
<filter id="softglow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="18"/></filter>
<filter id="blur4"><feGaussianBlur stdDeviation="4"/></filter>
</defs>
${body}
</svg>`;
}

function skyGradient(id: string, p: Palette) {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="${p.skyTop}"/><stop offset="0.55" stop-color="${p.skyMid}"/><stop offset="1" stop-color="${p.skyLow}"/></linearGradient>`;
}

function stars(w: number, h: number, count: number, rand: Rand, color = '#ffffff') {
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = rand() * w;
    const y = rand() * h;
    const r = rand() < 0.9 ? 0.8 + rand() * 1.2 : 2 + rand() * 1.5;
    out += `<circle cx="${r1(x)}" cy="${r1(y)}" r="${r1(r)}" fill="${color}" opacity="${r1(0.3 + rand() * 0.7)}"/>`;
  }
  return out;
}

/** Retro striped sun; stripes are cut by drawing sky-coloured bars over the lower half. */
function retroSun(cx: number, cy: number, r: number, p: Palette, stripeColor: string, id: string) {
  const defs = `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.sunTop}"/><stop offset="1" stop-color="${p.sunBottom}"/></linearGradient>
<clipPath id="${id}c"><circle cx="${cx}" cy="${cy}" r="${r}"/></clipPath>`;
  let bars = '';
  const n = 7;
  for (let i = 0; i < n; i++) {
    const y = cy - r * 0.45 + (i / n) * r * 1.4;
    const bh = r * 0.025 + (i / n) * r * 0.09;
    bars += `<rect x="${cx - r}" y="${r1(y)}" width="${2 * r}" height="${r1(bh)}" fill="${stripeColor}"/>`;
  }
  const body = `<circle cx="${cx}" cy="${cy}" r="${r * 1.35}" fill="${p.sunBottom}" opacity="0.25" filter="url(#softglow)"/>
<g clip-path="url(#${id}c)"><circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#${id})"/>${bars}</g>`;
  return { defs, body };
}

function perspectiveGrid(w: number, horizon: number, h: number, color: string, opacity = 0.7) {
  let out = `<g stroke="${color}" stroke-width="2" opacity="${opacity}" filter="url(#glow)">`;
  const vx = w / 2;
  for (let i = -14; i <= 14; i++) {
    const x = vx + i * (w / 7);
    out += `<line x1="${vx + i * 8}" y1="${horizon}" x2="${r1(x)}" y2="${h}"/>`;
  }
  for (let i = 1; i < 14; i++) {
    const t = Math.pow(i / 13, 2.2);
    const y = horizon + t * (h - horizon);
    out += `<line x1="0" y1="${r1(y)}" x2="${w}" y2="${r1(y)}"/>`;
  }
  return out + '</g>';
}

function sea(w: number, horizon: number, h: number, p: Palette, rand: Rand, shimmerX: number) {
  let out = `<rect x="0" y="${horizon}" width="${w}" height="${h - horizon}" fill="${p.sea}"/>`;
  const rows = 22;
  for (let i = 0; i < rows; i++) {
    const t = i / rows;
    const y = horizon + Math.pow(t, 1.6) * (h - horizon);
    const width = 20 + t * w * 0.22 * (0.5 + rand());
    const x = shimmerX - width / 2 + (rand() - 0.5) * 40 * (1 + t * 4);
    out += `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(width)}" height="${r1(2 + t * 6)}" rx="3" fill="${p.sunBottom}" opacity="${r1(0.75 - t * 0.45)}"/>`;
  }
  // Long swell lines across the water.
  for (let i = 0; i < 9; i++) {
    const y = horizon + Math.pow((i + 1) / 10, 1.5) * (h - horizon);
    let d = `M 0 ${r1(y)}`;
    for (let x = 0; x <= w; x += w / 8) {
      d += ` Q ${r1(x + w / 16)} ${r1(y - 4 - i)} ${r1(x + w / 8)} ${r1(y)}`;
    }
    out += `<path d="${d}" fill="none" stroke="${p.neon2}" stroke-width="${1 + i * 0.3}" opacity="0.18"/>`;
  }
  return out;
}

function skyline(
  w: number,
  base: number,
  rand: Rand,
  color: string,
  maxH: number,
  windows: string,
) {
  let out = '';
  let x = -10;
  while (x < w) {
    const bw = 40 + rand() * 90;
    const bh = maxH * (0.25 + rand() * 0.75);
    out += `<rect x="${r1(x)}" y="${r1(base - bh)}" width="${r1(bw)}" height="${r1(bh + 2)}" fill="${color}"/>`;
    for (let wy = base - bh + 12; wy < base - 10; wy += 16) {
      for (let wx = x + 8; wx < x + bw - 10; wx += 14) {
        if (rand() < 0.18) {
          out += `<rect x="${r1(wx)}" y="${r1(wy)}" width="6" height="8" fill="${windows}" opacity="${r1(0.5 + rand() * 0.5)}"/>`;
        }
      }
    }
    x += bw + rand() * 6;
  }
  return out;
}

/** A Ferris-wheel-ish ring of lights on the horizon (boardwalk amusements). */
function ferrisWheel(cx: number, cy: number, r: number, color: string, glow: string) {
  let out = `<g filter="url(#glow)"><circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${color}" stroke-width="3"/>`;
  for (let i = 0; i < 16; i++) {
    const a = (i / 16) * Math.PI * 2;
    const x = cx + Math.cos(a) * r;
    const y = cy + Math.sin(a) * r;
    out += `<line x1="${cx}" y1="${cy}" x2="${r1(x)}" y2="${r1(y)}" stroke="${color}" stroke-width="1.5" opacity="0.8"/>`;
    out += `<circle cx="${r1(x)}" cy="${r1(y)}" r="${r1(r * 0.05)}" fill="${glow}"/>`;
  }
  out += `<line x1="${cx}" y1="${cy}" x2="${cx - r * 0.6}" y2="${cy + r * 1.25}" stroke="${color}" stroke-width="4"/>`;
  out += `<line x1="${cx}" y1="${cy}" x2="${cx + r * 0.6}" y2="${cy + r * 1.25}" stroke="${color}" stroke-width="4"/></g>`;
  return out;
}

function palm(x: number, base: number, height: number, color: string, lean: number) {
  const topX = x + lean;
  const topY = base - height;
  let out = `<path d="M ${x - 8} ${base} Q ${x + lean * 0.3} ${base - height * 0.5} ${topX} ${topY} L ${topX + 6} ${topY + 4} Q ${x + lean * 0.3 + 10} ${base - height * 0.5} ${x + 10} ${base} Z" fill="${color}"/>`;
  for (let i = 0; i < 7; i++) {
    const a = -Math.PI + (i / 6) * Math.PI + (i % 2) * 0.2;
    const len = height * (0.35 + (i % 3) * 0.06);
    const ex = topX + Math.cos(a) * len;
    const ey = topY + Math.sin(a) * len * 0.5 + len * 0.35;
    const mx = topX + Math.cos(a) * len * 0.5;
    const my = topY + Math.sin(a) * len * 0.6 - 10;
    out += `<path d="M ${topX} ${topY} Q ${r1(mx)} ${r1(my)} ${r1(ex)} ${r1(ey)} Q ${r1(mx)} ${r1(my + 14)} ${topX} ${topY + 6} Z" fill="${color}"/>`;
  }
  return out;
}

/** Silhouette of a person from the chest up: head + shoulders. */
function person(x: number, base: number, s: number, color: string, armsUp = false, tilt = 0) {
  let out = `<g transform="rotate(${r1(tilt)} ${r1(x)} ${r1(base)})">`;
  out += `<path d="M ${r1(x - s * 0.9)} ${r1(base)} Q ${r1(x - s * 0.85)} ${r1(base - s * 0.9)} ${r1(x)} ${r1(base - s)} Q ${r1(x + s * 0.85)} ${r1(base - s * 0.9)} ${r1(x + s * 0.9)} ${r1(base)} Z" fill="${color}"/>`;
  out += `<rect x="${r1(x - s * 0.14)}" y="${r1(base - s * 1.2)}" width="${r1(s * 0.28)}" height="${r1(s * 0.3)}" fill="${color}"/>`;
  out += `<ellipse cx="${r1(x)}" cy="${r1(base - s * 1.45)}" rx="${r1(s * 0.3)}" ry="${r1(s * 0.37)}" fill="${color}"/>`;
  if (armsUp) {
    out += `<path d="M ${r1(x + s * 0.6)} ${r1(base - s * 0.8)} L ${r1(x + s * 0.95)} ${r1(base - s * 2.3)} L ${r1(x + s * 1.12)} ${r1(base - s * 2.25)} L ${r1(x + s * 0.85)} ${r1(base - s * 0.7)} Z" fill="${color}"/>`;
    out += `<circle cx="${r1(x + s * 1.03)}" cy="${r1(base - s * 2.35)}" r="${r1(s * 0.13)}" fill="${color}"/>`;
  }
  return out + '</g>';
}

/** A full-height standing silhouette, feet at `floor`; `armUp` raises the right arm. */
function standing(x: number, floor: number, H: number, color: string, armUp = false) {
  const y0 = floor - H * 0.82;
  const y1 = floor - H * 0.48;
  const pts: [number, number][] = [
    [x - H * 0.13, y0 + H * 0.02],
    [x - H * 0.17, floor - H * 0.44],
    [x - H * 0.135, floor - H * 0.43],
    [x - H * 0.1, y0 + H * 0.12],
    [x - H * 0.085, y1],
    [x - H * 0.08, floor],
    [x - H * 0.015, floor],
    [x, floor - H * 0.4],
    [x + H * 0.015, floor],
    [x + H * 0.08, floor],
    [x + H * 0.085, y1],
    [x + H * 0.1, y0 + H * 0.12],
    ...((armUp
      ? [
          [x + H * 0.2, y0 - H * 0.2],
          [x + H * 0.235, y0 - H * 0.18],
        ]
      : [
          [x + H * 0.135, floor - H * 0.43],
          [x + H * 0.17, floor - H * 0.44],
        ]) as [number, number][]),
    [x + H * 0.13, y0 + H * 0.02],
    [x + H * 0.03, y0 - H * 0.03],
    [x - H * 0.03, y0 - H * 0.03],
  ];
  const d = 'M ' + pts.map(([px, py]) => `${r1(px)} ${r1(py)}`).join(' L ') + ' Z';
  return `<path d="${d}" fill="${color}" stroke="${color}" stroke-width="${r1(H * 0.02)}" stroke-linejoin="round"/>
<ellipse cx="${r1(x)}" cy="${r1(floor - H * 0.92)}" rx="${r1(H * 0.06)}" ry="${r1(H * 0.075)}" fill="${color}"/>`;
}

// --- Scenes --------------------------------------------------------------------------------

export type Scene =
  | 'sunset-grid'
  | 'boardwalk'
  | 'crowd'
  | 'studio'
  | 'band'
  | 'sunrise'
  | 'neon-sign'
  | 'night-drive'
  | 'waves'
  | 'rings'
  | 'pier';

export type SceneOptions = { palette: Palette; seed: number; variant?: number };

export function scene(kind: Scene, w: number, h: number, o: SceneOptions): string {
  const p = o.palette;
  const rand = rng(o.seed);
  const v = o.variant ?? 0;
  switch (kind) {
    case 'sunset-grid': {
      const horizon = h * 0.6;
      const sun = retroSun(w / 2, horizon - h * 0.02, Math.min(w, h) * 0.24, p, p.skyMid, 'sun');
      return svg(
        w,
        h,
        skyGradient('sky', p) + sun.defs,
        `<rect width="${w}" height="${h}" fill="url(#sky)"/>${stars(w, horizon * 0.7, 120, rand)}${sun.body}
${v % 2 === 0 ? skyline(w, horizon, rand, p.ink, h * 0.12, p.neon2) : ''}
<rect x="0" y="${horizon}" width="${w}" height="${h - horizon}" fill="${p.ink}"/>
${perspectiveGrid(w, horizon, h, p.neon)}
<rect x="0" y="${horizon - 2}" width="${w}" height="4" fill="${p.neon}" filter="url(#glow)"/>`,
      );
    }
    case 'sunrise': {
      const horizon = h * 0.58;
      const sunR = Math.min(w, h) * 0.16;
      return svg(
        w,
        h,
        skyGradient('sky', p) +
          `<radialGradient id="sunglow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${p.sunTop}" stop-opacity="0.9"/><stop offset="1" stop-color="${p.sunBottom}" stop-opacity="0"/></radialGradient>
<linearGradient id="sand" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyMid}"/><stop offset="1" stop-color="${p.ink}"/></linearGradient>`,
        `<rect width="${w}" height="${h}" fill="url(#sky)"/>
<circle cx="${w * 0.5}" cy="${horizon}" r="${sunR * 4}" fill="url(#sunglow)"/>
<circle cx="${w * 0.5}" cy="${horizon}" r="${sunR}" fill="${p.sunTop}"/>
${stars(w, horizon * 0.35, 30, rand)}
${sea(w, horizon, h, p, rand, w * 0.5)}
<path d="M 0 ${h * 0.86} Q ${w * 0.3} ${h * 0.8} ${w * 0.55} ${h * 0.84} T ${w} ${h * 0.82} L ${w} ${h} L 0 ${h} Z" fill="url(#sand)"/>
<path d="M 0 ${h * 0.86} Q ${w * 0.3} ${h * 0.8} ${w * 0.55} ${h * 0.84} T ${w} ${h * 0.82}" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.35"/>
${v === 1 ? palm(w * 0.12, h * 0.9, h * 0.5, p.ink, 60) + palm(w * 0.88, h * 0.9, h * 0.42, p.ink, -50) : ''}`,
      );
    }
    case 'boardwalk': {
      const horizon = h * 0.5;
      let planks = '';
      for (let i = 0; i < 26; i++) {
        const t = Math.pow(i / 25, 2);
        const y = horizon + 40 + t * (h - horizon - 40);
        planks += `<line x1="0" y1="${r1(y)}" x2="${w}" y2="${r1(y)}" stroke="${p.ink}" stroke-width="${r1(1 + t * 4)}" opacity="0.8"/>`;
      }
      let lamps = '';
      for (let i = 0; i < 6; i++) {
        const t = i / 5;
        const x = w * (0.08 + t * 0.36);
        const base = horizon + 40 + (1 - t) * (h * 0.38);
        const lh = (1 - t) * h * 0.45 + h * 0.1;
        const s = 1 - t * 0.75;
        lamps += `<rect x="${r1(x - 3 * s)}" y="${r1(base - lh)}" width="${r1(6 * s)}" height="${r1(lh)}" fill="${p.ink}"/>
<circle cx="${r1(x)}" cy="${r1(base - lh)}" r="${r1(60 * s)}" fill="${p.neon2}" opacity="0.35" filter="url(#softglow)"/>
<circle cx="${r1(x)}" cy="${r1(base - lh)}" r="${r1(12 * s)}" fill="${p.sunTop}"/>`;
      }
      return svg(
        w,
        h,
        skyGradient('sky', p) +
          `<linearGradient id="deck" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyMid}"/><stop offset="1" stop-color="#2a1a14"/></linearGradient>`,
        `<rect width="${w}" height="${h}" fill="url(#sky)"/>${stars(w, horizon * 0.8, 140, rand)}
<circle cx="${w * 0.78}" cy="${h * 0.18}" r="${h * 0.06}" fill="#fdf6e3" opacity="0.95"/>
${sea(w, horizon, h, p, rand, w * 0.78)}
${ferrisWheel(w * 0.86, horizon - h * 0.12, h * 0.11, p.neon, p.sunTop)}
<path d="M 0 ${horizon + 40} L ${w} ${horizon + 40} L ${w} ${h} L 0 ${h} Z" fill="url(#deck)"/>
${planks}
<rect x="0" y="${horizon + 28}" width="${w}" height="12" fill="${p.ink}"/>
${lamps}
${person(w * 0.62, h * 0.86, h * 0.09, p.ink, false, -4)}${person(w * 0.67, h * 0.87, h * 0.085, p.ink, false, 5)}`,
      );
    }
    case 'crowd': {
      let beams = '';
      const colors = [p.neon, p.neon2, p.sunTop];
      for (let i = 0; i < 7; i++) {
        const x = w * (0.1 + i * 0.13);
        const spread = w * (0.12 + rand() * 0.1);
        const angle = (rand() - 0.5) * w * 0.4;
        beams += `<path d="M ${r1(x)} 0 L ${r1(x + angle - spread)} ${h} L ${r1(x + angle + spread)} ${h} Z" fill="${colors[i % 3]}" opacity="0.16" filter="url(#blur4)"/>`;
      }
      let haze = '';
      for (let i = 0; i < 10; i++) {
        haze += `<ellipse cx="${r1(rand() * w)}" cy="${r1(h * (0.3 + rand() * 0.4))}" rx="${r1(w * 0.2)}" ry="${r1(h * 0.08)}" fill="${p.neon2}" opacity="0.06" filter="url(#softglow)"/>`;
      }
      let people = '';
      for (let row = 0; row < 3; row++) {
        const base = h * (0.88 + row * 0.07);
        const s = h * (0.07 + row * 0.03);
        const color = row === 2 ? '#000000' : p.ink;
        for (let x = -s; x < w + s; x += s * (1.3 + rand() * 0.6)) {
          people += person(x, base, s, color, rand() < 0.2, (rand() - 0.5) * 12);
        }
      }
      return svg(
        w,
        h,
        `<radialGradient id="stage" cx="0.5" cy="0.35" r="0.75"><stop offset="0" stop-color="${p.skyLow}"/><stop offset="0.5" stop-color="${p.skyMid}"/><stop offset="1" stop-color="${p.skyTop}"/></radialGradient>`,
        `<rect width="${w}" height="${h}" fill="url(#stage)"/>${beams}${haze}
<rect x="${w * 0.2}" y="${h * 0.5}" width="${w * 0.6}" height="${h * 0.06}" fill="${p.ink}" opacity="0.8"/>
${person(w * 0.5, h * 0.52, h * 0.06, p.ink)}
${Array.from({ length: 12 }, (_, i) => `<circle cx="${r1(w * (0.05 + i * 0.082))}" cy="${h * 0.04}" r="${h * 0.018}" fill="${colors[i % 3]}" filter="url(#glow)"/>`).join('')}
${people}`,
      );
    }
    case 'studio': {
      const deskTop = h * 0.45;
      let keys = '';
      const kx = w * 0.08;
      const kw = w * 0.84;
      const ky = h * 0.68;
      const kh = h * 0.22;
      const white = 36;
      for (let i = 0; i < white; i++) {
        keys += `<rect x="${r1(kx + (i * kw) / white + 1)}" y="${r1(ky)}" width="${r1(kw / white - 2)}" height="${r1(kh)}" rx="3" fill="#e8e4f0" opacity="0.9"/>`;
      }
      for (let i = 0; i < white - 1; i++) {
        if ([2, 6].includes(i % 7)) continue;
        keys += `<rect x="${r1(kx + ((i + 0.65) * kw) / white)}" y="${r1(ky)}" width="${r1((kw / white) * 0.7)}" height="${r1(kh * 0.6)}" rx="2" fill="#101018"/>`;
      }
      let knobs = '';
      for (let row = 0; row < 3; row++) {
        for (let i = 0; i < 14; i++) {
          const cx = kx + (i + 0.5) * (kw / 14);
          const cy = deskTop + h * 0.06 + row * h * 0.065;
          const a = rand() * Math.PI * 1.5 - Math.PI * 1.25;
          knobs += `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${h * 0.022}" fill="#1c1a26" stroke="#3a3650" stroke-width="2"/>
<line x1="${r1(cx)}" y1="${r1(cy)}" x2="${r1(cx + Math.cos(a) * h * 0.018)}" y2="${r1(cy + Math.sin(a) * h * 0.018)}" stroke="#f0f0f0" stroke-width="2"/>`;
          if (rand() < 0.35)
            knobs += `<circle cx="${r1(cx + h * 0.03)}" cy="${r1(cy - h * 0.02)}" r="3" fill="${rand() < 0.5 ? p.neon : p.neon2}" filter="url(#glow)"/>`;
        }
      }
      let patch = '';
      for (let i = 0; i < 8; i++) {
        const x1 = kx + rand() * kw;
        const x2 = kx + rand() * kw;
        const y = deskTop + h * 0.05;
        patch += `<path d="M ${r1(x1)} ${r1(y)} Q ${r1((x1 + x2) / 2)} ${r1(y + h * (0.1 + rand() * 0.15))} ${r1(x2)} ${r1(y + h * 0.12)}" fill="none" stroke="${[p.neon, p.neon2, p.sunTop][i % 3]}" stroke-width="5" opacity="0.85"/>`;
      }
      let meter = '';
      for (let i = 0; i < 24; i++) {
        const bh = h * 0.03 + rand() * h * 0.16;
        meter += `<rect x="${r1(w * 0.3 + i * w * 0.017)}" y="${r1(h * 0.36 - bh)}" width="${r1(w * 0.011)}" height="${r1(bh)}" fill="${i > 18 ? p.neon : p.neon2}" opacity="0.9"/>`;
      }
      return svg(
        w,
        h,
        skyGradient('wall', p) +
          `<linearGradient id="desk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2a2638"/><stop offset="1" stop-color="#0b0a12"/></linearGradient>`,
        `<rect width="${w}" height="${h}" fill="url(#wall)"/>
<rect x="${w * 0.27}" y="${h * 0.12}" width="${w * 0.46}" height="${h * 0.28}" rx="10" fill="#05050a" stroke="${p.neon2}" stroke-width="2" opacity="0.95"/>
${meter}
<circle cx="${w * 0.12}" cy="${h * 0.2}" r="${h * 0.1}" fill="#0c0b12" stroke="#2c2840" stroke-width="6"/><circle cx="${w * 0.12}" cy="${h * 0.2}" r="${h * 0.04}" fill="#1b1926"/>
<circle cx="${w * 0.88}" cy="${h * 0.2}" r="${h * 0.1}" fill="#0c0b12" stroke="#2c2840" stroke-width="6"/><circle cx="${w * 0.88}" cy="${h * 0.2}" r="${h * 0.04}" fill="#1b1926"/>
<rect x="0" y="${deskTop}" width="${w}" height="${h - deskTop}" fill="url(#desk)"/>
${knobs}${patch}${keys}
<rect x="0" y="${h * 0.93}" width="${w}" height="${h * 0.07}" fill="#07060b"/>`,
      );
    }
    case 'band': {
      const floor = h * 0.9;
      const figures = [0.3, 0.5, 0.7]
        .map((fx, i) => standing(w * fx, floor, h * (i === 1 ? 0.62 : 0.56), '#000000', i === 2))
        .join('');
      return svg(
        w,
        h,
        `<radialGradient id="back" cx="0.5" cy="0.45" r="0.6"><stop offset="0" stop-color="${p.sunTop}"/><stop offset="0.25" stop-color="${p.skyLow}"/><stop offset="0.7" stop-color="${p.skyMid}"/><stop offset="1" stop-color="${p.skyTop}"/></radialGradient>`,
        `<rect width="${w}" height="${h}" fill="url(#back)"/>
${Array.from({ length: 18 }, (_, i) => {
  const a = (i / 18) * Math.PI * 2;
  return `<line x1="${w / 2}" y1="${h * 0.45}" x2="${r1(w / 2 + Math.cos(a) * w)}" y2="${r1(h * 0.45 + Math.sin(a) * w)}" stroke="${p.sunTop}" stroke-width="${r1(10 + rand() * 30)}" opacity="0.07"/>`;
}).join('')}
${figures}
<rect x="0" y="${floor}" width="${w}" height="${h - floor}" fill="#000000"/>
<ellipse cx="${w / 2}" cy="${floor}" rx="${w * 0.4}" ry="${h * 0.015}" fill="${p.sunTop}" opacity="0.4" filter="url(#blur4)"/>`,
      );
    }
    case 'neon-sign': {
      let bricks = '';
      const bh = h / 28;
      const bw = bh * 2.6;
      for (let row = 0; row < 28; row++) {
        for (let x = row % 2 ? -bw / 2 : 0; x < w; x += bw) {
          const shade = 10 + Math.floor(rand() * 10);
          bricks += `<rect x="${r1(x + 2)}" y="${r1(row * bh + 2)}" width="${r1(bw - 4)}" height="${r1(bh - 4)}" fill="rgb(${shade + 14},${shade},${shade + 18})"/>`;
        }
      }
      const cx = w / 2;
      const cy = h * 0.46;
      const r = Math.min(w, h) * 0.28;
      let wavePath = `M ${r1(cx - r * 0.8)} ${r1(cy + r * 0.25)}`;
      for (let i = 0; i < 4; i++) {
        const x0 = cx - r * 0.8 + i * r * 0.4;
        wavePath += ` q ${r1(r * 0.1)} ${r1(-r * 0.22)} ${r1(r * 0.2)} 0 t ${r1(r * 0.2)} 0`;
        void x0;
      }
      const tube = (d: string, color: string) =>
        `<path d="${d}" fill="none" stroke="${color}" stroke-width="${r1(r * 0.12)}" opacity="0.35" filter="url(#softglow)"/><path d="${d}" fill="none" stroke="${color}" stroke-width="${r1(r * 0.035)}" stroke-linecap="round" filter="url(#glow)"/><path d="${d}" fill="none" stroke="#ffffff" stroke-width="${r1(r * 0.012)}" stroke-linecap="round" opacity="0.8"/>`;
      const sunArc = `M ${r1(cx - r * 0.55)} ${r1(cy)} A ${r1(r * 0.55)} ${r1(r * 0.55)} 0 0 1 ${r1(cx + r * 0.55)} ${r1(cy)}`;
      return svg(
        w,
        h,
        '',
        `<rect width="${w}" height="${h}" fill="#0a0810"/>${bricks}
<rect width="${w}" height="${h}" fill="${p.skyTop}" opacity="0.55"/>
<circle cx="${cx}" cy="${cy}" r="${r * 1.6}" fill="${p.neon}" opacity="0.18" filter="url(#softglow)"/>
${tube(`M ${cx - r} ${cy} A ${r} ${r} 0 1 1 ${cx + r} ${cy} A ${r} ${r} 0 1 1 ${cx - r} ${cy}`, p.neon)}
${tube(sunArc, p.sunTop)}
${tube(wavePath, p.neon2)}
${tube(`M ${r1(cx - r * 0.8)} ${r1(cy + r * 0.5)} L ${r1(cx + r * 0.8)} ${r1(cy + r * 0.5)}`, p.neon2)}`,
      );
    }
    case 'night-drive': {
      const horizon = h * 0.52;
      let lights = '';
      for (let i = 0; i < 40; i++) {
        const t = i / 40;
        const y = horizon + Math.pow(t, 1.8) * (h - horizon);
        const spread = (y - horizon) * 1.1;
        lights += `<line x1="${r1(w / 2 - spread - 10)}" y1="${r1(y)}" x2="${r1(w / 2 - spread - 10 - spread * 0.25)}" y2="${r1(y + 4)}" stroke="${p.neon}" stroke-width="${r1(1 + t * 5)}" opacity="${r1(0.2 + t * 0.6)}"/>`;
        lights += `<line x1="${r1(w / 2 + spread * 0.2)}" y1="${r1(y)}" x2="${r1(w / 2 + spread * 0.35)}" y2="${r1(y + 3)}" stroke="${p.sunTop}" stroke-width="${r1(1 + t * 4)}" opacity="${r1(0.15 + t * 0.5)}"/>`;
      }
      let dashes = '';
      for (let i = 0; i < 12; i++) {
        const t0 = Math.pow(i / 12, 2);
        const t1 = Math.pow((i + 0.5) / 12, 2);
        const y0 = horizon + t0 * (h - horizon);
        const y1 = horizon + t1 * (h - horizon);
        dashes += `<path d="M ${w / 2 - 1 - t0 * 8} ${r1(y0)} L ${w / 2 + 1 + t0 * 8} ${r1(y0)} L ${w / 2 + 1 + t1 * 8} ${r1(y1)} L ${w / 2 - 1 - t1 * 8} ${r1(y1)} Z" fill="${p.sunTop}" opacity="0.8"/>`;
      }
      const sun = retroSun(w / 2, horizon, Math.min(w, h) * 0.18, p, p.skyMid, 'dsun');
      return svg(
        w,
        h,
        skyGradient('sky', p) + sun.defs,
        `<rect width="${w}" height="${h}" fill="url(#sky)"/>${stars(w, horizon * 0.7, 100, rand)}${sun.body}
${skyline(w, horizon, rand, p.ink, h * 0.1, p.neon2)}
${palm(w * 0.08, horizon + 6, h * 0.3, p.ink, 40)}${palm(w * 0.93, horizon + 6, h * 0.26, p.ink, -30)}
<path d="M 0 ${horizon} L ${w} ${horizon} L ${w} ${h} L 0 ${h} Z" fill="${p.ink}"/>
<path d="M ${w / 2 - 6} ${horizon} L ${w / 2 + 6} ${horizon} L ${w * 1.1} ${h} L ${-w * 0.1} ${h} Z" fill="#15121f"/>
${dashes}${lights}
${perspectiveGrid(w, horizon, h, p.neon, 0.18)}`,
      );
    }
    case 'waves': {
      let layers = '';
      const n = 9;
      for (let i = 0; i < n; i++) {
        const t = i / (n - 1);
        const y = h * (0.35 + t * 0.6);
        const amp = h * (0.03 + t * 0.04) * (1 + (v % 3) * 0.3);
        let d = `M 0 ${r1(y)}`;
        const seg = 4 + (i % 3);
        for (let s = 0; s < seg; s++) {
          const x0 = (s / seg) * w;
          const x1 = ((s + 1) / seg) * w;
          d += ` C ${r1(x0 + (x1 - x0) * 0.3)} ${r1(y - amp * (s % 2 ? -1 : 1))} ${r1(x0 + (x1 - x0) * 0.7)} ${r1(y - amp * (s % 2 ? -1 : 1))} ${r1(x1)} ${r1(y)}`;
        }
        d += ` L ${w} ${h} L 0 ${h} Z`;
        layers += `<path d="${d}" fill="${p.sea}" opacity="${r1(0.5 + t * 0.5)}"/><path d="${d.split(' L ')[0]}" fill="none" stroke="${i % 2 ? p.neon : p.neon2}" stroke-width="${r1(2 + t * 3)}" opacity="${r1(0.5 + t * 0.4)}" filter="url(#glow)"/>`;
      }
      return svg(
        w,
        h,
        skyGradient('sky', p),
        `<rect width="${w}" height="${h}" fill="url(#sky)"/>${stars(w, h * 0.35, 90, rand)}
<circle cx="${w * (0.3 + (v % 2) * 0.4)}" cy="${h * 0.22}" r="${Math.min(w, h) * 0.09}" fill="${p.sunTop}" filter="url(#glow)"/>
${layers}`,
      );
    }
    case 'rings': {
      let rings = '';
      const cx = w / 2;
      const cy = h / 2;
      for (let i = 14; i > 0; i--) {
        const r = (Math.min(w, h) / 2) * (i / 14) * 0.95;
        rings += `<circle cx="${cx}" cy="${cy}" r="${r1(r)}" fill="none" stroke="${i % 2 ? p.neon : p.neon2}" stroke-width="${r1(2 + (i % 4))}" opacity="${r1(0.25 + (1 - i / 14) * 0.7)}" stroke-dasharray="${i % 3 ? 'none' : `${r1(r * 0.3)} ${r1(r * 0.12)}`}" filter="url(#glow)"/>`;
      }
      return svg(
        w,
        h,
        `<radialGradient id="bg" cx="0.5" cy="0.5" r="0.7"><stop offset="0" stop-color="${p.skyMid}"/><stop offset="1" stop-color="${p.skyTop}"/></radialGradient>`,
        `<rect width="${w}" height="${h}" fill="url(#bg)"/>${stars(w, h, 160, rand)}${rings}
<circle cx="${cx}" cy="${cy}" r="${Math.min(w, h) * 0.07}" fill="${p.sunTop}" filter="url(#glow)"/>`,
      );
    }
    case 'pier': {
      const horizon = h * 0.55;
      let pilings = '';
      for (let i = 0; i < 16; i++) {
        const t = i / 15;
        const x = w * 0.05 + t * w * 0.75;
        const top = horizon - h * 0.06 + t * h * 0.04;
        const ph = h * 0.16 * (1 - t * 0.6);
        pilings += `<rect x="${r1(x)}" y="${r1(top)}" width="${r1(10 - t * 6)}" height="${r1(ph)}" fill="${p.ink}"/>`;
      }
      return svg(
        w,
        h,
        skyGradient('sky', p),
        `<rect width="${w}" height="${h}" fill="url(#sky)"/>${stars(w, horizon * 0.8, 110, rand)}
<circle cx="${w * 0.7}" cy="${h * 0.25}" r="${h * 0.07}" fill="${p.sunTop}" opacity="0.95"/>
<circle cx="${w * 0.7}" cy="${h * 0.25}" r="${h * 0.16}" fill="${p.sunBottom}" opacity="0.25" filter="url(#softglow)"/>
${sea(w, horizon, h, p, rand, w * 0.7)}
<path d="M ${w * 0.02} ${horizon - h * 0.08} L ${w * 0.82} ${horizon - h * 0.02} L ${w * 0.82} ${horizon - h * 0.005} L ${w * 0.02} ${horizon - h * 0.05} Z" fill="${p.ink}"/>
${pilings}
${Array.from({ length: 9 }, (_, i) => `<circle cx="${r1(w * (0.05 + i * 0.09))}" cy="${r1(horizon - h * 0.09 + i * h * 0.007)}" r="${r1(6 - i * 0.4)}" fill="${p.neon2}" filter="url(#glow)"/>`).join('')}
${person(w * 0.76, horizon - h * 0.02, h * 0.03, p.ink)}`,
      );
    }
  }
}

// --- Rendering -----------------------------------------------------------------------------

/** A deterministic monochrome grain layer (raw RGBA, mid-grey ± amplitude). */
async function grain(w: number, h: number, seed: number, amplitude: number) {
  const rand = rng(seed);
  const data = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const v = 128 + Math.round((rand() - 0.5) * 2 * amplitude);
    data[i * 4] = v;
    data[i * 4 + 1] = v;
    data[i * 4 + 2] = v;
    data[i * 4 + 3] = 255;
  }
  return sharp(data, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
}

export async function renderJpeg(
  svgText: string,
  w: number,
  h: number,
  out: string,
  opts: { seed: number; grain?: number; quality?: number; blur?: number },
) {
  let img = sharp(Buffer.from(svgText)).resize(w, h);
  if (opts.blur) img = img.blur(opts.blur);
  const base = await img.png().toBuffer();
  let pipeline = sharp(base);
  if (opts.grain && opts.grain > 0) {
    pipeline = pipeline.composite([
      { input: await grain(w, h, opts.seed, opts.grain), blend: 'soft-light' },
    ]);
  }
  await pipeline
    .flatten({ background: '#000000' })
    .jpeg({ quality: opts.quality ?? 78, mozjpeg: true, chromaSubsampling: '4:2:0' })
    .toFile(out);
}

export async function renderPng(svgText: string, size: number, out: string) {
  await sharp(Buffer.from(svgText)).resize(size, size).png({ compressionLevel: 9 }).toFile(out);
}

export async function pngBuffer(svgText: string, size: number) {
  return sharp(Buffer.from(svgText)).resize(size, size).png({ compressionLevel: 9 }).toBuffer();
}

// --- Brand marks ---------------------------------------------------------------------------

/** The Night Shore mark: a striped sun setting into three waves, inside a rounded square. */
export function logoSvg(size = 512, rounded = true) {
  const s = size;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 512 512">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#140428"/><stop offset="1" stop-color="#3a0d5c"/></linearGradient>
<linearGradient id="sun" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffe66d"/><stop offset="1" stop-color="#ff2e88"/></linearGradient>
<clipPath id="c"><circle cx="256" cy="250" r="150"/></clipPath>
</defs>
<rect width="512" height="512" rx="${rounded ? 112 : 0}" fill="url(#bg)"/>
<g clip-path="url(#c)">
<rect x="96" y="90" width="320" height="190" fill="url(#sun)"/>
<rect x="96" y="206" width="320" height="12" fill="#3a0d5c"/>
<rect x="96" y="236" width="320" height="18" fill="#3a0d5c"/>
<rect x="96" y="268" width="320" height="24" fill="#3a0d5c"/>
</g>
<path d="M 84 318 Q 127 288 170 318 T 256 318 T 342 318 T 428 318" fill="none" stroke="#21d4fd" stroke-width="28" stroke-linecap="round"/>
<path d="M 116 382 Q 151 356 186 382 T 256 382 T 326 382 T 396 382" fill="none" stroke="#21d4fd" stroke-width="24" stroke-linecap="round" opacity="0.75"/>
</svg>`;
}

export function vinylSvg(size: number) {
  const c = size / 2;
  let grooves = '';
  for (let r = size * 0.17; r < size * 0.47; r += size * 0.006) {
    grooves += `<circle cx="${c}" cy="${c}" r="${r1(r)}" fill="none" stroke="#2b2b30" stroke-width="1" opacity="${r1(0.4 + ((r * 7) % 5) / 10)}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a2a30"/><stop offset="1" stop-color="#111114"/></linearGradient>
<linearGradient id="shine" x1="0" y1="0" x2="1" y2="1"><stop offset="0.3" stop-color="#ffffff" stop-opacity="0"/><stop offset="0.5" stop-color="#ffffff" stop-opacity="0.12"/><stop offset="0.7" stop-color="#ffffff" stop-opacity="0"/></linearGradient>
<radialGradient id="label" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#8a8a94"/><stop offset="1" stop-color="#5c5c66"/></radialGradient>
</defs>
<rect width="${size}" height="${size}" fill="url(#bg)"/>
<circle cx="${c}" cy="${c}" r="${size * 0.47}" fill="#0b0b0d"/>
${grooves}
<circle cx="${c}" cy="${c}" r="${size * 0.47}" fill="url(#shine)"/>
<circle cx="${c}" cy="${c}" r="${size * 0.16}" fill="url(#label)"/>
<circle cx="${c}" cy="${c}" r="${size * 0.11}" fill="none" stroke="#9c9ca6" stroke-width="2" opacity="0.6"/>
<circle cx="${c}" cy="${c}" r="${size * 0.015}" fill="#111114"/>
</svg>`;
}

/** Packs PNG images into a .ico container (PNG-compressed entries, supported by all browsers). */
export function icoFromPngs(entries: { size: number; png: Buffer }[]) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  const dir = Buffer.alloc(16 * entries.length);
  let offset = 6 + dir.length;
  entries.forEach((e, i) => {
    const o = i * 16;
    dir.writeUInt8(e.size >= 256 ? 0 : e.size, o);
    dir.writeUInt8(e.size >= 256 ? 0 : e.size, o + 1);
    dir.writeUInt8(0, o + 2);
    dir.writeUInt8(0, o + 3);
    dir.writeUInt16LE(1, o + 4);
    dir.writeUInt16LE(32, o + 6);
    dir.writeUInt32LE(e.png.length, o + 8);
    dir.writeUInt32LE(offset, o + 12);
    offset += e.png.length;
  });
  return Buffer.concat([header, dir, ...entries.map((e) => e.png)]);
}
