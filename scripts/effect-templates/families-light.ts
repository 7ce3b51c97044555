/** Families built on light: neon, glow, glitch, galaxy, retro, sci-fi, matrix, thunder, rainbow. */
import { HUES, brickWall, darkWall, fill, hsl, lin, neonText, pick, rad, starField, tone, type Draft, type Hue } from './kit.js';
import type { BackgroundLayer } from '../../engine/features/effects/template.generated.js';

const CANVAS = { width: 1024, height: 512 };
const NEON_FONTS = ['monoton', 'righteous', 'pacifico', 'audiowide', 'lobster', 'satisfy', 'bebas-neue', 'sacramento', 'orbitron'];

export function neon(): Draft[] {
  const out: Draft[] = [];
  const backdrops: [string, string, (h: Hue) => BackgroundLayer[]][] = [
    ['Sign', 'on a dark plaster wall', darkWall],
    ['Brick Wall', 'mounted on a brick wall', (h) => brickWall(h)],
    ['Night Grid', 'over a faint night grid', (h) => [...darkWall(h), { type: 'grid', color: hsl(h.h, 80, 30), spacing: 48, width: 1, opacity: 0.35 }]],
  ];
  HUES.slice(0, 14).forEach((hue, i) => backdrops.forEach(([label, where, bg], j) => {
    const font = pick(NEON_FONTS, i + j * 5);
    out.push({
      name: `${hue.name} Neon ${label}`, family: 'neon', input: 'text', canvas: CANVAS, tags: ['neon', 'glow', hue.name.toLowerCase()],
      description: `${hue.name.toLowerCase()} neon tube letters ${where}, set in ${font.replace(/-/g, ' ')}.`,
      background: bg(hue),
      text: [neonText(font, hue, { curve: j === 2 ? 20 : 0, letterSpacing: font === 'monoton' ? 0.02 : 0 })],
      filters: [{ type: 'vignette', strength: 0.5 }],
    });
  }));
  // Two-colour tubes: outline in one colour, glow in another.
  for (let i = 0; i < 12; i++) {
    const a = HUES[i], b = HUES[(i + 5) % HUES.length];
    out.push({
      name: `${a.name} and ${b.name} Dual Neon`, family: 'neon', input: 'text', canvas: CANVAS, tags: ['neon', 'dual'],
      description: `Neon letters with a ${a.name.toLowerCase()} tube and a ${b.name.toLowerCase()} halo, with a floor reflection.`,
      background: [fill(lin([[0, '#05040a'], [0.62, hsl(b.h, 30, 10)], [0.63, '#040308'], [1, '#000000']]))],
      text: [{ font: pick(NEON_FONTS, i * 2 + 1), box: { x: 0.5, y: 0.42, w: 0.86, h: 0.42 }, fill: hsl(a.h, 100, 90),
        glows: [{ blur: 0.5, color: tone(b, 50), stroke: 0.06, passes: 2 }, { blur: 0.1, color: tone(a, 60), stroke: 0.04 }],
        outlines: [{ width: 0.02, paint: tone(a, 65) }], reflection: { opacity: 0.35, gap: 0.06 } }],
    });
  }
  return out;
}

export function glow(): Draft[] {
  const out: Draft[] = [];
  const fonts = ['lobster', 'great-vibes', 'righteous', 'fredoka', 'cinzel', 'pacifico'];
  HUES.slice(0, 12).forEach((hue, i) => {
    out.push({
      name: `${hue.name} Soft Glow`, family: 'light', input: 'text', canvas: CANVAS, tags: ['glow', 'light'],
      description: `White-hot letters radiating a wide ${hue.name.toLowerCase()} bloom on a deep gradient.`,
      background: [fill(rad([[0, hsl(hue.h, 60, 18)], [1, hsl(hue.h, 70, 3)]]))],
      text: [{ font: pick(fonts, i), fill: '#ffffff', glows: [{ blur: 0.8, color: tone(hue, 55), passes: 2 }, { blur: 0.25, color: tone(hue, 75) }] }],
      filters: [{ type: 'bloom', radius: 12, strength: 0.5 }],
    });
    out.push({
      name: `${hue.name} Light Painting`, family: 'light', input: 'text', canvas: CANVAS, tags: ['light', 'long exposure'],
      description: `Long-exposure light-painted script in ${hue.name.toLowerCase()} over a dark night scene with sparks.`,
      background: [fill(lin([[0, '#02030a'], [1, hsl(hue.h, 40, 8)]])), { type: 'particles', shape: 'sparkle', count: 60, colors: [tone(hue, 70), '#ffffff'], size: [1, 4], seed: i + 3, glow: 8 }],
      text: [{ font: pick(['great-vibes', 'sacramento', 'satisfy', 'pacifico'], i), fill: '#fffdf5', rotate: -6,
        glows: [{ blur: 0.3, color: tone(hue, 60), passes: 3 }], outlines: [{ width: 0.012, paint: tone(hue, 70) }] }],
    });
  });
  return out;
}

export function glitch(): Draft[] {
  const pairs: [string, string, string][] = [
    ['Cyan Red', '#00f0ff', '#ff1f4b'], ['Green Magenta', '#2bff88', '#ff2bd6'], ['Blue Orange', '#2b6bff', '#ff8a1f'],
    ['Teal Pink', '#1fffd0', '#ff5fa8'], ['Yellow Purple', '#ffe81f', '#8a2bff'], ['White Red', '#ffffff', '#ff2020'],
    ['Lime Violet', '#b6ff1f', '#6b2bff'], ['Ice Crimson', '#bff6ff', '#d4001f'],
  ];
  const modes: [string, string, string][] = [
    ['Split', 'clean RGB-split offsets', 'rubik-mono-one'], ['Corrupted', 'heavy sliced corruption', 'anton'], ['VHS', 'tape scanlines and jitter', 'vt323'],
  ];
  const out: Draft[] = [];
  pairs.forEach(([name, a, b], i) => modes.forEach(([mode, what, font], j) => out.push({
    name: `${name} Glitch ${mode}`, family: 'glitch', input: 'text', canvas: CANVAS, tags: ['glitch', 'rgb split'],
    description: `Glitch text in ${name.toLowerCase()} channels with ${what}.`,
    background: [fill(j === 2 ? '#0b0b12' : '#050505'), ...(j === 1 ? [{ type: 'grid', color: 'rgba(255,255,255,0.05)', spacing: 24, width: 1 } as BackgroundLayer] : [])],
    text: [{ font: pick([font, 'orbitron', 'press-start-2p'], i), transform: 'upper', fill: '#f4f4f4', shadows: [{ x: -0.05, y: 0, color: a }, { x: 0.05, y: 0.01, color: b }] }],
    filters: [
      { type: 'glitch', slices: j === 1 ? 22 : 8, offset: j === 1 ? 60 : 24, shift: j === 0 ? 6 : 3, seed: i * 7 + j },
      ...(j === 2 ? [{ type: 'scanlines', spacing: 4, opacity: 0.35 } as const, { type: 'noise', amount: 0.12 } as const] : []),
    ],
  })));
  return out;
}

export function galaxy(): Draft[] {
  const nebulae: [string, number, number][] = [['Violet', 270, 320], ['Ocean', 210, 180], ['Ember', 15, 330], ['Aurora', 150, 280], ['Rose', 330, 260], ['Cosmic Blue', 230, 300], ['Golden', 45, 15], ['Emerald', 140, 200]];
  const looks = ['Nebula', 'Starlight', 'Orbit'];
  const out: Draft[] = [];
  nebulae.forEach(([name, h1, h2], i) => looks.forEach((look, j) => out.push({
    name: `${name} Galaxy ${look}`, family: 'galaxy', input: 'text', canvas: CANVAS, tags: ['galaxy', 'space', 'stars'],
    description: `${look === 'Nebula' ? 'Letters filled with a swirling' : look === 'Starlight' ? 'Bright star-glow letters over a' : 'Orbitron letters ringed over a'} ${name.toLowerCase()} nebula star field.`,
    background: [
      fill('#020109'),
      fill({ type: 'noise', mode: 'turbulence', scale: 180, seed: i + 40, stops: [[0, 'rgba(0,0,0,0)'], [0.5, hsl(h1, 80, 25) + ''], [1, hsl(h2, 90, 60)]] }, { opacity: 0.8, blend: 'screen' }),
      starField(i * 3 + j, 260),
      { type: 'particles', shape: 'sparkle', count: 14, colors: ['#ffffff'], size: [3, 7], seed: i + 9, glow: 10 },
    ],
    text: [j === 0
      ? { font: pick(['audiowide', 'bungee', 'anton'], i), transform: 'upper', fill: { type: 'noise', mode: 'fbm', scale: 60, seed: i, stops: [[0, hsl(h1, 90, 30)], [0.5, hsl(h2, 90, 55)], [1, '#ffffff']] },
        outlines: [{ width: 0.025, paint: '#ffffff' }], glows: [{ blur: 0.3, color: hsl(h2, 90, 60) }] }
      : j === 1
        ? { font: pick(['monoton', 'orbitron', 'righteous'], i), fill: '#ffffff', glows: [{ blur: 0.5, color: hsl(h2, 100, 65), passes: 2 }, { blur: 0.12, color: hsl(h1, 100, 80) }] }
        : { font: 'orbitron', transform: 'upper', curve: 40, letterSpacing: 0.12, fill: lin([[0, hsl(h1, 90, 80)], [1, hsl(h2, 90, 55)]]), shadows: [{ y: 0.04, blur: 0.1, color: '#000000' }], glows: [{ blur: 0.2, color: hsl(h1, 90, 55) }] }],
  })));
  return out;
}

export function retro(): Draft[] {
  const palettes: [string, number, number][] = [['Sunset', 320, 40], ['Miami', 190, 320], ['Vapor', 280, 170], ['Arcade', 260, 55], ['Outrun', 340, 20], ['Cyber', 170, 300]];
  const out: Draft[] = [];
  palettes.forEach(([name, h1, h2], i) => {
    const sky: BackgroundLayer[] = [
      fill(lin([[0, '#0a0220'], [0.55, hsl(h1, 70, 22)], [0.56, '#080012'], [1, '#140030']])),
      starField(i + 70, 120),
      { type: 'shape', shape: 'circle', box: { x: 0.5, y: 0.5, w: 0.34, h: 0.68 }, fill: lin([[0, hsl(h2, 100, 65)], [1, hsl(h1, 100, 55)]]) },
      { type: 'grid', color: hsl(h1, 100, 60), spacing: 40, width: 2, horizon: 0.56, glow: 10 },
    ];
    out.push({
      name: `${name} Synthwave Chrome`, family: 'retro', input: 'text', canvas: CANVAS, tags: ['retro', '80s', 'synthwave'],
      description: `80s chrome title over a ${name.toLowerCase()} sun and perspective grid.`,
      background: sky,
      text: [{ font: pick(['righteous', 'audiowide', 'bungee'], i), transform: 'upper', box: { x: 0.5, y: 0.42, w: 0.9, h: 0.4 }, skewX: -12,
        fill: lin([[0, '#e8f6ff'], [0.48, '#5aa9ff'], [0.5, '#1a0a33'], [0.56, hsl(h2, 100, 70)], [1, '#fff0f8']]),
        outlines: [{ width: 0.03, paint: '#ffffff' }], glows: [{ blur: 0.3, color: hsl(h1, 100, 60) }] }],
    });
    out.push({
      name: `${name} Retro Script`, family: 'retro', input: 'text2', canvas: CANVAS, tags: ['retro', '80s', 'two lines'],
      description: `Two-line 80s poster: a blocky neon headline and a hot script subtitle over a ${name.toLowerCase()} grid.`,
      background: sky,
      text: [
        { source: 'text1', font: 'monoton', transform: 'upper', box: { x: 0.5, y: 0.32, w: 0.9, h: 0.36 }, fill: '#ffffff', glows: [{ blur: 0.4, color: hsl(h2, 100, 60), stroke: 0.04 }] },
        { source: 'text2', font: pick(['pacifico', 'satisfy', 'lobster'], i), box: { x: 0.5, y: 0.66, w: 0.7, h: 0.3 }, rotate: -6, fill: hsl(h1, 100, 70), outlines: [{ width: 0.03, paint: '#ffffff' }], glows: [{ blur: 0.3, color: hsl(h1, 100, 55) }] },
      ],
    });
    out.push({
      name: `${name} Arcade Pixel`, family: 'retro', input: 'text', canvas: CANVAS, tags: ['retro', 'pixel', '8-bit'],
      description: `Pixel-font arcade title with a blocky drop shadow on a ${name.toLowerCase()} gradient with scanlines.`,
      background: [fill(lin([[0, hsl(h1, 60, 12)], [1, hsl(h2, 60, 20)]])), { type: 'grid', color: 'rgba(255,255,255,0.06)', spacing: 16 }],
      text: [{ font: 'press-start-2p', transform: 'upper', fill: lin([[0, hsl(h2, 100, 70)], [1, hsl(h1, 100, 55)]]), extrude: { depth: 0.12, angle: 45, from: hsl(h1, 80, 30), to: hsl(h1, 80, 12) } }],
      filters: [{ type: 'scanlines', spacing: 4, opacity: 0.25 }],
    });
  });
  return out;
}

export function pixel(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 10).forEach((hue, i) => out.push({
    name: `${hue.name} 8-bit Block`, family: 'pixel', input: 'text', canvas: CANVAS, tags: ['pixel', '8-bit', 'game'],
    description: `Chunky ${hue.name.toLowerCase()} 8-bit letters, pixelated, on a checkered game screen.`,
    background: [fill({ type: 'pattern', shape: 'checker', colors: [hsl(hue.h, 30, 10), hsl(hue.h, 30, 14), hsl(hue.h, 30, 12)], size: 32 })],
    text: [{ font: pick(['press-start-2p', 'vt323'], i), transform: 'upper', fill: tone(hue, 60), outlines: [{ width: 0.08, paint: '#000000', join: 'miter' }], shadows: [{ x: 0.1, y: 0.1, color: hsl(hue.h, 60, 20) }] }],
    filters: [{ type: 'pixelate', size: 4 }],
  }));
  return out;
}

export function scifi(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 8).forEach((hue, i) => {
    out.push({
      name: `${hue.name} Hologram HUD`, family: 'sci-fi', input: 'text', canvas: CANVAS, tags: ['sci-fi', 'hologram', 'tech'],
      description: `Translucent ${hue.name.toLowerCase()} hologram letters with scanlines over a tech HUD grid.`,
      background: [fill(rad([[0, hsl(hue.h, 60, 12)], [1, '#010306']])), { type: 'grid', color: hsl(hue.h, 90, 50), spacing: 32, width: 1, opacity: 0.25 },
        { type: 'shape', shape: 'hexagon', box: { x: 0.5, y: 0.5, w: 0.5, h: 0.95 }, stroke: { width: 2, paint: hsl(hue.h, 90, 60) }, opacity: 0.4 }],
      text: [{ font: pick(['orbitron', 'audiowide'], i), transform: 'upper', letterSpacing: 0.1, fill: hsl(hue.h, 100, 75) + '', opacity: 0.85, glows: [{ blur: 0.25, color: tone(hue, 55) }] }],
      filters: [{ type: 'scanlines', spacing: 3, opacity: 0.3 }, { type: 'glitch', slices: 3, offset: 10, seed: i }],
    });
    out.push({
      name: `${hue.name} Circuit Tech`, family: 'sci-fi', input: 'text', canvas: CANVAS, tags: ['sci-fi', 'technology'],
      description: `Metallic tech lettering edged in ${hue.name.toLowerCase()} light over a circuit-board pattern.`,
      background: [fill({ type: 'pattern', shape: 'crosshatch', colors: ['#060a0e', hsl(hue.h, 60, 18)], size: 40 }), fill(rad([[0, 'rgba(0,0,0,0)'], [1, 'rgba(0,0,0,0.8)']]))],
      text: [{ font: 'russo-one', transform: 'upper', fill: lin([[0, '#f0f4f8'], [0.5, '#6b7785'], [1, '#d8dee6']]), outlines: [{ width: 0.03, paint: tone(hue, 55) }], glows: [{ blur: 0.3, color: tone(hue, 50), stroke: 0.03 }] }],
    });
  });
  return out;
}

export function matrix(): Draft[] {
  const colors: [string, number][] = [['Green', 130], ['Cyan', 185], ['Red', 0], ['Amber', 40], ['Blue', 215], ['Violet', 275]];
  return colors.map(([name, h], i) => ({
    name: `${name} Code Rain`, family: 'glitch', input: 'text', canvas: CANVAS, tags: ['matrix', 'code', 'hacker'],
    description: `Text glowing through columns of falling ${name.toLowerCase()} code glyphs.`,
    background: [fill('#000300'), { type: 'code-rain', color: hsl(h, 100, 45), head: hsl(h, 100, 85), columns: 48, seed: i + 1 }],
    text: [{ font: pick(['vt323', 'orbitron', 'dejavu-mono'], i), transform: 'upper', fill: hsl(h, 100, 80), outlines: [{ width: 0.03, paint: '#000000' }], glows: [{ blur: 0.3, color: hsl(h, 100, 50), passes: 2 }] }],
  }));
}

export function thunder(): Draft[] {
  const skies: [string, number][] = [['Storm', 220], ['Violet Storm', 270], ['Red Storm', 350], ['Teal Storm', 180], ['Golden Storm', 45], ['Night Storm', 235]];
  return skies.map(([name, h], i) => ({
    name: `${name} Thunder`, family: 'thunder', input: 'text', canvas: CANVAS, tags: ['thunder', 'lightning'],
    description: `Electric letters crackling under lightning bolts in a ${name.toLowerCase()} sky.`,
    background: [fill(lin([[0, hsl(h, 40, 6)], [1, hsl(h, 50, 18)]])), fill({ type: 'noise', mode: 'fbm', scale: 140, seed: i + 5, stops: [[0, 'rgba(0,0,0,0)'], [1, hsl(h, 30, 40)]] }, { opacity: 0.5 }),
      { type: 'bolts', count: 3, color: '#ffffff', glow: hsl(h, 100, 70), width: 3, seed: i + 2 }],
    text: [{ font: pick(['bebas-neue', 'russo-one', 'anton'], i), transform: 'upper', fill: lin([[0, '#ffffff'], [1, hsl(h, 100, 75)]]), outlines: [{ width: 0.02, paint: hsl(h, 100, 60) }], glows: [{ blur: 0.5, color: hsl(h, 100, 60), passes: 2 }] }],
  }));
}

export function rainbow(): Draft[] {
  const out: Draft[] = [];
  const bases: [string, string, boolean][] = [['Night', '#0a0a0a', true], ['Day', '#ffffff', false], ['Dusk', '#1a1033', true], ['Cream', '#f5efe6', false]];
  const styles = ['Prism', 'Spectrum', 'Holo Foil', 'Pastel Rainbow'];
  for (let i = 0; i < 8; i++) {
    const s = i % 4;
    const [bname, base, dark] = bases[(i + Math.floor(i / 4)) % 4];
    out.push({
      name: `${styles[s]} ${bname}`, family: 'rainbow', input: 'text', canvas: CANVAS, tags: ['rainbow', 'holographic'],
      description: `${s === 2 ? 'Iridescent holographic foil' : 'Rainbow'} letters on a ${dark ? 'dark' : 'light'} backdrop.`,
      background: [fill(base), ...(s === 1 ? [{ type: 'rays', count: 24, colors: ['rgba(128,128,128,0.08)', 'rgba(0,0,0,0)'] } as BackgroundLayer] : [])],
      text: [{ font: pick(['fredoka', 'bungee', 'righteous', 'chewy'], i), fill: s === 2
        ? { type: 'conic', stops: [[0, '#ff9ad5'], [0.2, '#9ad0ff'], [0.4, '#c8ffb0'], [0.6, '#fff2a0'], [0.8, '#d9a8ff'], [1, '#ff9ad5']] }
        : lin(([[0, '#ff3b3b'], [0.2, '#ff9f1a'], [0.4, '#ffe81a'], [0.6, '#2bd94a'], [0.8, '#2b8aff'], [1, '#9b2bff']] as [number, string][]).map(([o, c]) => [o, s === 3 ? c + '99' : c] as [number, string]), s === 1 ? 90 : 0),
        outlines: [{ width: 0.03, paint: dark ? '#ffffff' : '#1a1a1a' }], shadows: [{ x: 0.04, y: 0.05, blur: 0.04, color: 'rgba(0,0,0,0.45)' }] }],
    });
  }
  return out;
}
