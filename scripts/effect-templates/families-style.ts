/** Families built on a graphic style: graffiti, comic, paper, sketch, badges, holidays, sport, flags, typography, horror, vintage. */
import { HUES, brickWall, fill, hsl, lin, metal, pick, rad, tone, type Draft } from './kit.js';
import { shade } from './families-material.js';
import type { BackgroundLayer, ShapeKind, TextLayer } from '../../engine/features/effects/template.generated.js';

const CANVAS = { width: 1024, height: 512 };

export function graffiti(): Draft[] {
  const sprays: [string, string, string][] = [['Toxic', '#b6ff1f', '#ff2bd6'], ['Fire', '#ffdd1f', '#ff3b1f'], ['Ocean', '#1fd0ff', '#2b3bff'], ['Bubblegum', '#ff8fd0', '#8a2bff'], ['Mint', '#5fffc0', '#0f8a6b'], ['Sunset', '#ffb01f', '#d4145a'], ['Ice', '#e0ffff', '#1f8aff'], ['Lava', '#ff6a1f', '#5a0a0a']];
  const walls: [string, (i: number) => BackgroundLayer[]][] = [
    ['Brick', (i) => brickWall({ name: '', h: 15 + i * 3, s: 30 }, 30)],
    ['Concrete', (i) => [fill({ type: 'noise', mode: 'fbm', scale: 40, seed: i, stops: [[0, '#7a7a78'], [1, '#a8a8a4']] }), fill({ type: 'noise', mode: 'grain', stops: [[0, 'rgba(0,0,0,0.15)'], [1, 'rgba(255,255,255,0.1)']] })]],
    ['Shutter', (i) => [fill({ type: 'pattern', shape: 'stripes', colors: ['#5c646c', '#8a939c', '#3a4148'], size: 28 }), { type: 'particles', shape: 'drop', count: 20, colors: [hsl(i * 40, 80, 50)], size: [2, 5], seed: i }]],
  ];
  const out: Draft[] = [];
  sprays.forEach(([name, a, b], i) => walls.forEach(([wall, bg], j) => out.push({
    name: `${name} Graffiti ${wall}`, family: 'graffiti', input: 'text', canvas: CANVAS, tags: ['graffiti', 'street'],
    description: `Spray-painted ${name.toLowerCase()} graffiti letters with a thick outline and drips on a ${wall.toLowerCase()} wall.`,
    background: bg(i),
    text: [{ font: pick(['permanent-marker', 'bangers', 'luckiest-guy'], i + j), rotate: -5, skewX: -8, fill: lin([[0, a], [1, b]]),
      outlines: [{ width: 0.07, paint: '#111111' }, { width: 0.035, paint: '#ffffff' }], extrude: { depth: 0.08, angle: 40, from: '#111111' },
      glows: [{ blur: 0.25, color: a + '88' }] }],
    filters: [{ type: 'noise', amount: 0.08 }],
  })));
  return out;
}

export function comic(): Draft[] {
  const sets: [string, string, string, string][] = [['Pow', '#ffe01f', '#ff2b2b', '#1f6bff'], ['Zap', '#5fe0ff', '#2b2bff', '#ffe01f'], ['Boom', '#ff8a1f', '#b3001f', '#ffe01f'], ['Wham', '#ff5fd0', '#6b00b3', '#5fffc0'], ['Bam', '#b6ff1f', '#1f8a1f', '#ff3b8a'], ['Kapow', '#ffffff', '#ff1f4b', '#1fb6ff'], ['Splat', '#ffd1a0', '#ff6a00', '#8a2bff'], ['Whoosh', '#d1f0ff', '#0078d4', '#ff9f1f']];
  const out: Draft[] = [];
  sets.forEach(([name, face, edge, ground], i) => {
    const burst: BackgroundLayer = { type: 'shape', shape: 'burst', box: { x: 0.5, y: 0.5, w: 0.9, h: 1.1 }, fill: ground, stroke: { width: 6, paint: '#111111' } };
    out.push({
      name: `${name} Comic Burst`, family: 'comic', input: 'text', canvas: CANVAS, tags: ['comic', 'pop art'],
      description: `Comic sound-effect lettering on a jagged burst with halftone dots, ${name.toLowerCase()} colours.`,
      background: [fill({ type: 'pattern', shape: 'halftone', colors: [shade(ground, 0.5), shade(ground, 0.2)], size: 18 }), burst],
      text: [{ font: 'bangers', transform: 'upper', rotate: -8, letterSpacing: 0.04, box: { x: 0.5, y: 0.5, w: 0.7, h: 0.5 }, fill: lin([[0, face], [1, shade(face, -0.2)]]),
        outlines: [{ width: 0.08, paint: '#111111' }, { width: 0.05, paint: edge }], extrude: { depth: 0.1, angle: 50, from: '#111111' } }],
    });
    out.push({
      name: `${name} Comic 3D`, family: 'comic', input: 'text', canvas: CANVAS, tags: ['comic', '3d'],
      description: `Chunky cartoon 3D letters with a ${name.toLowerCase()} face and hard ink shadow over speed lines.`,
      background: [fill(rad([[0, '#ffffff'], [1, shade(ground, 0.3)]])), { type: 'rays', count: 36, colors: [shade(ground, 0.6), 'rgba(255,255,255,0)'] }],
      text: [{ font: 'luckiest-guy', fill: face, outlines: [{ width: 0.05, paint: '#111111' }], extrude: { depth: 0.2, angle: 60, from: edge, to: shade(edge, -0.6), outline: '#111111' }, overlays: [{ paint: 'rgba(255,255,255,0.45)', top: 0.3 }] }],
    });
    out.push({
      name: `${name} Pop Art Dots`, family: 'comic', input: 'text', canvas: CANVAS, tags: ['comic', 'pop art', 'halftone'],
      description: `Pop-art letters filled with ${name.toLowerCase()} halftone dots and a bold offset shadow.`,
      background: [fill(ground), fill({ type: 'pattern', shape: 'halftone', colors: ['rgba(0,0,0,0)', 'rgba(0,0,0,0.15)'], size: 14 })],
      text: [{ font: pick(['bangers', 'anton', 'bungee'], i), transform: 'upper', fill: { type: 'pattern', shape: 'halftone', colors: [face, edge], size: 12 }, outlines: [{ width: 0.04, paint: '#111111' }], shadows: [{ x: 0.08, y: 0.08, color: '#111111' }] }],
    });
  });
  return out;
}

export function paper(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 10).forEach((hue, i) => {
    const layers: TextLayer = { font: pick(['fredoka', 'bungee', 'chewy', 'rubik-mono-one'], i), fill: tone(hue, 80, 70),
      shadows: [1, 2, 3, 4, 5].map((k) => ({ x: 0.018 * k, y: 0.022 * k, blur: 0.01, color: hsl(hue.h, 70, 70 - k * 9) })).concat([{ x: 0.1, y: 0.14, blur: 0.12, color: 'rgba(0,0,0,0.35)' }]) };
    out.push({
      name: `${hue.name} Paper Cut`, family: 'paper', input: 'text', canvas: CANVAS, tags: ['paper cut', 'layered'],
      description: `Layered ${hue.name.toLowerCase()} paper-cut letters stacked in deepening shades with soft shadows.`,
      background: [fill(rad([[0, hsl(hue.h, 60, 88)], [1, hsl(hue.h, 50, 70)]])), { type: 'waves', count: 4, colors: [hsl(hue.h, 60, 80), hsl(hue.h, 55, 72), hsl(hue.h, 50, 64)], amplitude: 26, from: 0.55, to: 0.95, seed: i }],
      text: [layers],
    });
    out.push({
      name: `${hue.name} Sticker`, family: 'paper', input: 'text', canvas: CANVAS, tags: ['sticker'],
      description: `Die-cut ${hue.name.toLowerCase()} sticker lettering with a thick white border and drop shadow.`,
      background: [fill({ type: 'pattern', shape: 'grid', colors: ['#f4f4f0', '#dcdcd6'], size: 32 })],
      text: [{ font: pick(['luckiest-guy', 'chewy', 'pacifico', 'bangers'], i), rotate: -4, fill: lin([[0, tone(hue, 62)], [1, tone(hue, 45)]]), outlines: [{ width: 0.1, paint: '#ffffff' }],
        shadows: [{ x: 0.02, y: 0.05, blur: 0.1, color: 'rgba(0,0,0,0.35)' }] }],
    });
  });
  return out;
}

export function sketch(): Draft[] {
  const surfaces: [string, BackgroundLayer[], string[]][] = [
    ['Chalkboard', [fill({ type: 'noise', mode: 'fbm', scale: 90, seed: 3, stops: [[0, '#1e2b24'], [1, '#2e3d34']] }), fill({ type: 'noise', mode: 'grain', stops: [[0, 'rgba(255,255,255,0)'], [1, 'rgba(255,255,255,0.06)']] })], ['#f4f4f0', '#ffd1e0', '#d0f0ff', '#fff3a0']],
    ['Pencil Paper', [fill('#fbfaf6'), fill({ type: 'pattern', shape: 'grid', colors: ['rgba(0,0,0,0)', 'rgba(80,120,200,0.18)'], size: 28 })], ['#3a3a3a', '#5a4a3a', '#2b3a5a', '#5a2b3a']],
    ['Whiteboard', [fill(lin([[0, '#ffffff'], [1, '#e8ecef']]))], ['#1f4fd1', '#d11f2b', '#138a3b', '#111111']],
    ['Blueprint', [fill('#0f3b73'), fill({ type: 'pattern', shape: 'grid', colors: ['rgba(0,0,0,0)', 'rgba(255,255,255,0.25)'], size: 32 })], ['#ffffff', '#bfe3ff', '#fff3a0', '#a0ffd8']],
  ];
  const out: Draft[] = [];
  surfaces.forEach(([name, bg, inks], i) => inks.forEach((ink, j) => out.push({
    name: `${name} Sketch ${['I', 'II', 'III', 'IV'][j]}`, family: 'sketch', input: 'text', canvas: CANVAS, tags: ['sketch', 'drawing', 'handwritten'],
    description: `Hand-drawn lettering on a ${name.toLowerCase()} with ${j % 2 ? 'hatched' : 'scribbled'} strokes.`,
    background: bg,
    text: [{ font: pick(['caveat', 'permanent-marker', 'special-elite', 'satisfy'], i + j), rotate: j % 2 ? -3 : 2,
      fill: j % 2 ? { type: 'pattern', shape: 'crosshatch', colors: ['rgba(0,0,0,0)', ink], size: 8 } : ink, outlines: [{ width: 0.012, paint: ink, dash: [0.12, 0.03] }], opacity: 0.9 }],
    filters: [{ type: 'noise', amount: 0.06 }],
  })));
  return out;
}

export function badges(): Draft[] {
  const shapes: [string, ShapeKind][] = [['Shield', 'shield'], ['Round Badge', 'circle'], ['Hexagon', 'hexagon'], ['Ribbon', 'ribbon'], ['Star Badge', 'star'], ['Diamond', 'diamond'], ['Rounded Tag', 'rounded'], ['Burst Seal', 'burst']];
  const palettes: [string, string, string, string][] = [['Royal', '#1f2b73', '#e0b83b', '#ffffff'], ['Crimson', '#8a0f1f', '#f0f0f0', '#ffd84d'], ['Forest', '#1f4d2b', '#c8e0a0', '#ffffff'], ['Midnight', '#111318', '#3bd0ff', '#ffffff']];
  const out: Draft[] = [];
  shapes.forEach(([sname, shape], i) => palettes.forEach(([pname, base, rim, ink], j) => {
    const tall = shape === 'shield' || shape === 'star' || shape === 'diamond' || shape === 'burst' || shape === 'circle' || shape === 'hexagon';
    const two = (i + j) % 2 === 0;
    const box = tall ? { x: 0.5, y: 0.5, w: 0.46, h: 0.92 } : { x: 0.5, y: 0.5, w: 0.86, h: 0.6 };
    out.push({
      name: `${pname} ${sname} Logo`, family: 'logo', input: two ? 'text2' : 'text', canvas: CANVAS, tags: ['logo', 'badge', 'emblem'],
      description: `${pname} ${sname.toLowerCase()} emblem with a metallic rim and ${two ? 'a name and a tagline' : 'a bold name'}.`,
      background: [fill(rad([[0, shade(base, 0.25)], [1, shade(base, -0.6)]])), { type: 'shape', shape, box, fill: lin([[0, shade(base, 0.15)], [1, base]]), stroke: { width: 10, paint: lin(metal(45, 20 + j * 15)) }, shadow: { x: 0, y: 12, blur: 24, color: 'rgba(0,0,0,0.6)' } }],
      text: two
        ? [{ source: 'text1', font: pick(['russo-one', 'bebas-neue', 'cinzel', 'bungee'], i + j), transform: 'upper', box: { x: 0.5, y: 0.44, w: box.w * 0.8, h: 0.26 }, fill: ink, outlines: [{ width: 0.03, paint: shade(base, -0.5) }], shadows: [{ y: 0.05, blur: 0.05, color: 'rgba(0,0,0,0.5)' }] },
          { source: 'text2', font: 'bebas-neue', transform: 'upper', letterSpacing: 0.2, box: { x: 0.5, y: 0.64, w: box.w * 0.7, h: 0.11 }, fill: rim }]
        : [{ font: pick(['russo-one', 'bebas-neue', 'cinzel', 'bungee'], i + j), transform: 'upper', box: { x: 0.5, y: 0.5, w: box.w * 0.8, h: 0.3 }, fill: lin(metal(45, 60)), outlines: [{ width: 0.03, paint: shade(base, -0.5) }], shadows: [{ y: 0.05, blur: 0.05, color: 'rgba(0,0,0,0.5)' }] }],
    });
  }));
  return out;
}

export function holidays(): Draft[] {
  const out: Draft[] = [];
  const xmas: [string, string, string][] = [['Snowy Red', '#c8102e', '#0f5132'], ['Evergreen', '#0f5132', '#c8102e'], ['Frosty Blue', '#1f5fa8', '#ffffff'], ['Golden Star', '#b8860b', '#5a0a0a'], ['Candy Cane', '#e0182d', '#ffffff'], ['Silver Bells', '#8a9aa8', '#1f2b4d'], ['Gingerbread', '#8a4b1f', '#ffffff'], ['Holly', '#1f6b3b', '#d41f2b'], ['Midnight Mass', '#1a1a4d', '#ffd84d'], ['Cranberry', '#8a0f3b', '#f0d0a0']];
  xmas.forEach(([name, a, b], i) => out.push({
    name: `${name} Christmas`, family: 'christmas', input: 'text', canvas: CANVAS, tags: ['christmas', 'holiday', 'snow'],
    description: `Festive ${name.toLowerCase()} Christmas lettering with snow on top, falling flakes and baubles.`,
    background: [fill(rad([[0, shade(a, 0.2)], [1, shade(a, -0.6)]])), { type: 'particles', shape: i % 2 ? 'star' : 'snow', count: 140, colors: ['#ffffff', '#e0f0ff'], size: [1, 4], seed: i },
      { type: 'particles', shape: 'dot', count: 8, colors: [b, '#ffd84d'], size: [14, 24], seed: i + 50, band: [0.02, 0.16] }],
    text: [{ font: pick(['lobster', 'great-vibes', 'fredoka', 'cinzel', 'pacifico'], i), fill: i === 4 ? { type: 'pattern', shape: 'diagonal', colors: ['#ffffff', '#e0182d'], size: 30 } : lin([[0, shade(b, 0.3)], [1, b]]),
      outlines: [{ width: 0.03, paint: '#ffffff' }], overlays: [{ paint: '#ffffff', top: 0.18 }], shadows: [{ y: 0.06, blur: 0.1, color: 'rgba(0,0,0,0.5)' }] }],
  }));
  const halloween: [string, string, string][] = [['Pumpkin', '#ff7a00', '#1a0a00'], ['Witch', '#8a2be2', '#0a0014'], ['Slime', '#7fff00', '#0a1400'], ['Bone', '#f0ead6', '#1a1410'], ['Blood Moon', '#d4001f', '#0a0002'], ['Ghost', '#dff6ff', '#0a1018'], ['Cauldron', '#2bffb6', '#14001a'], ['Candy Corn', '#ffb01f', '#2a0a00']];
  halloween.forEach(([name, a, dark], i) => out.push({
    name: `${name} Halloween`, family: 'halloween', input: 'text', canvas: CANVAS, tags: ['halloween', 'spooky'],
    description: `Spooky ${name.toLowerCase()} Halloween letters glowing under a full moon with bats of shadow.`,
    background: [fill(lin([[0, dark], [1, shade(a, -0.7)]])), { type: 'shape', shape: 'circle', box: { x: 0.78, y: 0.28, w: 0.2, h: 0.4 }, fill: rad([[0, '#fff8d0'], [1, '#e0c070']]), shadow: { x: 0, y: 0, blur: 40, color: '#fff3a0' } },
      fill({ type: 'noise', mode: 'fbm', scale: 120, seed: i, stops: [[0, 'rgba(0,0,0,0)'], [1, 'rgba(120,120,140,0.35)']] })],
    text: [{ font: pick(['creepster', 'rye', 'luckiest-guy'], i), fill: lin([[0, shade(a, 0.3)], [1, a]]), outlines: [{ width: 0.02, paint: '#000000' }], glows: [{ blur: 0.35, color: a, passes: 2 }] }],
  }));
  const newYear: [string, string][] = [['Champagne', '#e8d08a'], ['Midnight Gold', '#ffd84d'], ['Silver Sparkle', '#e0e6ee'], ['Firework Red', '#ff3b5c'], ['Firework Blue', '#3bb0ff'], ['Confetti Pop', '#ff8ad6'], ['Aurora', '#5fffc0'], ['Countdown', '#ffffff']];
  newYear.forEach(([name, a], i) => out.push({
    name: `${name} New Year`, family: 'new-year', input: 'text', canvas: CANVAS, tags: ['new year', 'celebration', 'fireworks'],
    description: `New Year lettering in ${name.toLowerCase()} with firework bursts, bokeh and sparkles.`,
    background: [fill(lin([[0, '#05051a'], [1, '#1a0a2e']])), { type: 'particles', shape: 'bokeh', count: 40, colors: [a, '#ffffff'], size: [8, 30], seed: i },
      { type: 'rays', count: 40, colors: [a + '30', 'rgba(0,0,0,0)'], cx: 0.2 + (i % 3) * 0.3, cy: 0.2 }, { type: 'particles', shape: 'sparkle', count: 30, colors: ['#ffffff', a], size: [2, 6], seed: i + 9, glow: 8 }],
    text: [{ font: pick(['great-vibes', 'cinzel', 'monoton', 'abril-fatface'], i), fill: lin(metal(45, i % 2 ? 10 : 80, 1.05)), glows: [{ blur: 0.3, color: a }], outlines: [{ width: 0.015, paint: '#3a2a00' }] }],
  }));
  const valentine: [string, string][] = [['Sweetheart', '#ff2b5c'], ['Blush', '#ffb3c6'], ['Ruby Love', '#b3001f'], ['Lavender Love', '#c8a2ff'], ['Rose Petal', '#ff5f8a'], ['Cupid', '#ff8ad6'], ['Romance', '#d41f4b'], ['Heart Glow', '#ff3b8a']];
  valentine.forEach(([name, a], i) => out.push({
    name: `${name} Valentine`, family: 'valentine', input: 'text', canvas: CANVAS, tags: ['valentine', 'love', 'hearts'],
    description: `Romantic ${name.toLowerCase()} script surrounded by floating hearts.`,
    background: [fill(rad([[0, shade(a, 0.7)], [1, shade(a, -0.3)]])), fill({ type: 'pattern', shape: 'hearts', colors: ['rgba(0,0,0,0)', 'rgba(255,255,255,0.18)'], size: 48 }), { type: 'particles', shape: 'heart', count: 30, colors: [a, '#ffffff'], size: [6, 16], seed: i }],
    text: [{ font: pick(['great-vibes', 'pacifico', 'lobster', 'sacramento'], i), fill: i % 2 ? '#ffffff' : lin([[0, shade(a, 0.4)], [1, a]]), outlines: [{ width: 0.02, paint: shade(a, -0.4) }], glows: [{ blur: 0.25, color: '#ffffff' }], shadows: [{ y: 0.05, blur: 0.08, color: 'rgba(80,0,20,0.4)' }] }],
  }));
  const birthday: [string, string, string][] = [['Party', '#ff5fa8', '#ffe01f'], ['Rainbow Cake', '#5fb0ff', '#ff8a1f'], ['Golden Birthday', '#e0b83b', '#1a1a1a'], ['Pastel Party', '#c8a2ff', '#a0ffe0'], ['Confetti', '#ff3b3b', '#3bb0ff'], ['Sprinkles', '#ff8ad6', '#8ad6ff']];
  birthday.forEach(([name, a, b], i) => out.push({
    name: `${name} Birthday`, family: 'birthday', input: 'text', canvas: CANVAS, tags: ['birthday', 'party'],
    description: `Happy-birthday lettering in ${name.toLowerCase()} colours with confetti and a bunting banner.`,
    background: [fill(rad([[0, '#ffffff'], [1, shade(a, 0.5)]])), { type: 'particles', shape: 'confetti', count: 120, colors: [a, b, '#ffffff', '#5fffc0'], size: [3, 7], seed: i },
      { type: 'shape', shape: 'ribbon', box: { x: 0.5, y: 0.1, w: 1.1, h: 0.08 }, fill: b }],
    text: [{ font: pick(['luckiest-guy', 'chewy', 'fredoka'], i), curve: 24, fill: lin([[0, a], [1, shade(a, -0.3)]]), outlines: [{ width: 0.05, paint: '#ffffff' }], extrude: { depth: 0.07, angle: 80, from: shade(a, -0.5) } }],
  }));
  return out;
}

export function sport(): Draft[] {
  const teams: [string, string, string][] = [['Striker', '#d41f2b', '#ffffff'], ['Blue Jersey', '#1f4fd1', '#ffd84d'], ['Green Pitch', '#138a3b', '#ffffff'], ['Black Gold', '#111111', '#e0b83b'], ['Orange Court', '#ff7a00', '#1a1a1a'], ['Purple Arena', '#5a1fa8', '#5fffc0'], ['Sky Stadium', '#3bb0ff', '#0a1a3a'], ['Maroon Club', '#7a0f2b', '#f0d0a0'], ['Neon League', '#0a0a14', '#b6ff1f'], ['Silver Cup', '#5a6470', '#ffffff']];
  return teams.map(([name, a, b], i) => ({
    name: `${name} Team Banner`, family: 'sport', input: 'text2', canvas: CANVAS, tags: ['sport', 'team', 'esports'],
    description: `Team banner in ${name.toLowerCase()} colours: a slanted bold team name over a player number or tagline.`,
    background: [fill(lin([[0, shade(a, 0.2)], [1, shade(a, -0.5)]], 30)), fill({ type: 'pattern', shape: i % 2 ? 'hex' : 'diagonal', colors: ['rgba(0,0,0,0)', 'rgba(255,255,255,0.07)'], size: 40 }),
      { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.72, w: 1.2, h: 0.2 }, rotate: -4, fill: b }],
    text: [
      { source: 'text1', font: pick(['russo-one', 'bebas-neue', 'anton'], i), transform: 'upper', skewX: -12, box: { x: 0.5, y: 0.38, w: 0.9, h: 0.42 }, fill: b, outlines: [{ width: 0.04, paint: shade(a, -0.6) }], extrude: { depth: 0.08, angle: 30, from: shade(a, -0.7) } },
      { source: 'text2', font: 'bebas-neue', transform: 'upper', letterSpacing: 0.15, skewX: -12, rotate: -4, box: { x: 0.5, y: 0.72, w: 0.7, h: 0.14 }, fill: a },
    ],
  }));
}

export function flags(): Draft[] {
  const sets: [string, string[], boolean][] = [['Tricolour Red White Green', ['#d41f2b', '#ffffff', '#138a3b'], false], ['Blue White Stripes', ['#1f4fd1', '#ffffff', '#1f4fd1'], true], ['Green White Green', ['#138a3b', '#ffffff', '#138a3b'], false], ['Black Red Gold', ['#111111', '#d41f2b', '#ffcc00'], true], ['Sky Gold', ['#3bb0ff', '#ffcc00', '#3bb0ff'], true], ['Red White Red', ['#d41f2b', '#ffffff', '#d41f2b'], true], ['Orange White Green', ['#ff8a1f', '#ffffff', '#138a3b'], true], ['Blue Yellow', ['#1f4fd1', '#ffd84d', '#ffd84d'], true], ['Red Blue Stars', ['#b3001f', '#ffffff', '#1f2b73'], true], ['Green Gold Red', ['#138a3b', '#ffcc00', '#d41f2b'], false]];
  return sets.map(([name, [a, b, c], horizontal], i) => ({
    name: `${name} Flag Text`, family: 'flag', input: 'text', canvas: CANVAS, tags: ['flag', 'national', 'patriotic'],
    description: `3D letters painted in ${name.toLowerCase()} flag bands with a waving flag backdrop.`,
    background: [fill(lin([[0, a], [0.333, a], [0.334, b], [0.666, b], [0.667, c], [1, c]], horizontal ? 90 : 0)), fill({ type: 'noise', mode: 'fbm', scale: 120, stretch: 3, seed: i, stops: [[0, 'rgba(0,0,0,0.35)'], [0.5, 'rgba(0,0,0,0)'], [1, 'rgba(255,255,255,0.3)']] }), fill('rgba(0,0,0,0.35)')],
    text: [{ font: pick(['anton', 'russo-one', 'bungee'], i), transform: 'upper', fill: lin([[0, a], [0.333, a], [0.334, b], [0.666, b], [0.667, c], [1, c]], horizontal ? 90 : 0), outlines: [{ width: 0.03, paint: '#ffffff' }],
      extrude: { depth: 0.12, angle: 55, from: '#2a2a2a', to: '#0a0a0a' }, bevel: { size: 0.03, light: 'rgba(255,255,255,0.5)', dark: 'rgba(0,0,0,0.4)' } }],
  }));
}

export function typography(): Draft[] {
  const sets: [string, string, string, string][] = [['Editorial', '#f4efe6', '#111111', '#c8102e'], ['Dark Green', '#0f2b1f', '#e6f0e0', '#5fd08a'], ['Midnight', '#0a0f1f', '#ffffff', '#3bb0ff'], ['Mustard', '#e0b83b', '#1a1a1a', '#ffffff'], ['Blush', '#ffd6dc', '#5a0a1f', '#ffffff'], ['Concrete', '#c8c8c4', '#111111', '#ff4d1f'], ['Ocean', '#0f4c5c', '#f0fff6', '#ffb01f'], ['Plum', '#3a0f3b', '#ffd6f0', '#ff8ad6'], ['Sand', '#e8dcc0', '#3a2a1a', '#1f6b8a'], ['Noir', '#000000', '#f0f0f0', '#ffd84d'], ['Mint', '#d8fff0', '#0f3b2b', '#ff5f8a'], ['Crimson', '#6e0a14', '#fff0e0', '#ffcc00']];
  return sets.map(([name, ground, ink, accent], i) => ({
    name: `${name} Typography Poster`, family: 'typography', input: 'text2', canvas: CANVAS, tags: ['typography', 'poster', 'quote'],
    description: `Typographic poster on ${name.toLowerCase()}: a huge headline with a spaced-out subtitle and accent rule.`,
    background: [fill(ground), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.69, w: 0.3, h: 0.012 }, fill: accent }],
    text: [
      { source: 'text1', font: pick(['abril-fatface', 'anton', 'playfair-display', 'bebas-neue'], i), transform: i % 2 ? 'upper' : 'none', box: { x: 0.5, y: 0.4, w: 0.9, h: 0.46 }, fill: ink, shadows: i % 3 === 0 ? [{ x: 0.03, y: 0.03, color: accent }] : [] },
      { source: 'text2', font: pick(['bebas-neue', 'special-elite', 'righteous'], i), transform: 'upper', letterSpacing: 0.3, box: { x: 0.5, y: 0.8, w: 0.7, h: 0.1 }, fill: accent },
    ],
  }));
}

export function horror(): Draft[] {
  const sets: [string, string, string][] = [['Blood', '#b3000f', '#0a0000'], ['Zombie', '#6b8a1f', '#0a0f00'], ['Nightmare', '#5a0a8a', '#05000a'], ['Rust Blood', '#8a2b0f', '#0f0500'], ['Ghoul', '#8aa0a8', '#050a0f'], ['Crimson Drip', '#e0001f', '#000000']];
  const looks: [string, string][] = [['Drip', 'dripping letters'], ['Scrawl', 'scrawled scratchy letters'], ['Haunted', 'letters in fog']];
  const out: Draft[] = [];
  sets.forEach(([name, a, dark], i) => looks.forEach(([look, what], j) => out.push({
    name: `${name} ${look} Horror`, family: 'horror', input: 'text', canvas: CANVAS, tags: ['horror', 'blood', 'scary'],
    description: `Horror title: ${what} in ${name.toLowerCase()} tones on a grimy dark wall.`,
    background: [fill(rad([[0, shade(a, -0.6)], [1, dark]])), fill({ type: 'noise', mode: j === 2 ? 'fbm' : 'turbulence', scale: j === 2 ? 160 : 50, seed: i + j, stops: [[0, 'rgba(0,0,0,0)'], [1, j === 2 ? 'rgba(200,200,210,0.35)' : 'rgba(0,0,0,0.6)']] }),
      ...(j === 0 ? [{ type: 'particles', shape: 'drop', count: 26, colors: [a], size: [3, 8], seed: i, band: [0.7, 1] } as BackgroundLayer] : [])],
    text: [{ font: j === 1 ? 'permanent-marker' : pick(['creepster', 'rye'], i), transform: 'upper', fill: j === 0 ? lin([[0, shade(a, 0.45)], [1, a]]) : shade(a, 0.25),
      ...(j === 1 ? { rotate: -3, outlines: [{ width: 0.01, paint: shade(a, -0.5), dash: [0.08, 0.05] as [number, number] }] } : { glows: [{ blur: 0.3, color: a + '99' }] }),
      shadows: [{ x: 0, y: 0.06, blur: 0.06, color: 'rgba(0,0,0,0.8)' }] }],
    filters: [{ type: 'vignette', strength: 0.8 }, ...(j === 2 ? [{ type: 'blur', radius: 0.6 } as const] : [])],
  })));
  return out;
}

export function vintage(): Draft[] {
  const sets: [string, string, string][] = [['Sepia', '#f0e0c0', '#5a3a1a'], ['Old Newspaper', '#e8e4d8', '#1a1a1a'], ['Faded Navy', '#e8dcc0', '#1f2b4d'], ['Western', '#e0c090', '#5a1f0f'], ['Victorian', '#2b1f14', '#e0c07a'], ['Telegram', '#f4ecd0', '#2b2b2b'], ['War Poster', '#c8b890', '#3a2a1a'], ['Silent Film', '#1a1a1a', '#f0f0f0']];
  const out: Draft[] = [];
  sets.forEach(([name, paper, ink], i) => {
    out.push({
      name: `${name} Vintage Title`, family: 'vintage', input: 'text', canvas: CANVAS, tags: ['vintage', 'retro', 'old'],
      description: `Vintage ${name.toLowerCase()} title card with worn texture, double rule and film grain.`,
      background: [fill(paper), fill({ type: 'noise', mode: 'fbm', scale: 60, seed: i, stops: [[0, 'rgba(0,0,0,0)'], [1, 'rgba(90,60,20,0.25)']] }),
        { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.5, w: 0.92, h: 0.84 }, stroke: { width: 4, paint: ink } }, { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.5, w: 0.89, h: 0.78 }, stroke: { width: 1.5, paint: ink } }],
      text: [{ font: pick(['rye', 'cinzel', 'special-elite', 'playfair-display'], i), transform: 'upper', letterSpacing: 0.06, box: { x: 0.5, y: 0.5, w: 0.8, h: 0.5 }, fill: ink, opacity: 0.9 }],
      filters: [{ type: 'noise', amount: 0.12 }, { type: 'vignette', strength: 0.55, color: '#3a2a10' }],
    });
    out.push({
      name: `${name} Typewriter`, family: 'vintage', input: 'text', canvas: CANVAS, tags: ['typewriter', 'paper'],
      description: `Typed text on ${name.toLowerCase()} paper with uneven ink and ruled lines.`,
      background: [fill(paper), fill({ type: 'pattern', shape: 'stripes', colors: ['rgba(0,0,0,0)', 'rgba(0,0,0,0)', 'rgba(60,90,160,0.25)'], size: 40, line: 0.05 })],
      text: [{ font: 'special-elite', align: 'left', box: { x: 0.5, y: 0.5, w: 0.84, h: 0.3 }, fill: ink, opacity: 0.88 }],
      filters: [{ type: 'noise', amount: 0.08 }],
    });
  });
  return out;
}

export function watercolor(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 8).forEach((hue, i) => {
    const b = HUES[(i + 3) % HUES.length];
    out.push({
      name: `${hue.name} Watercolour`, family: 'watercolor', input: 'text', canvas: CANVAS, tags: ['watercolor', 'paint', 'art'],
      description: `Soft watercolour letters blending ${hue.name.toLowerCase()} into ${b.name.toLowerCase()} on textured paper.`,
      background: [fill('#fbf8f2'), fill({ type: 'noise', mode: 'grain', stops: [[0, 'rgba(0,0,0,0)'], [1, 'rgba(120,100,80,0.08)']] }),
        fill({ type: 'noise', mode: 'fbm', scale: 140, seed: i, stops: [[0, 'rgba(255,255,255,0)'], [0.6, 'rgba(255,255,255,0)'], [1, hsl(b.h, 70, 80) + '88']] })],
      text: [{ font: pick(['pacifico', 'great-vibes', 'lobster', 'satisfy'], i), fill: { type: 'noise', mode: 'fbm', scale: 50, seed: i + 3, stops: [[0, hsl(hue.h, 70, 55) + 'cc'], [0.5, hsl((hue.h + b.h) / 2, 60, 65) + 'aa'], [1, hsl(b.h, 70, 60) + 'cc']] },
        glows: [{ blur: 0.08, color: hsl(hue.h, 60, 70) + '55' }] }],
      filters: [{ type: 'blur', radius: 0.7 }],
    });
  });
  return out;
}

export function smoke(): Draft[] {
  const out: Draft[] = [];
  [['Grey', 220, 5], ['Blue', 215, 60], ['Purple', 280, 55], ['Red', 355, 60], ['Green', 140, 50], ['Gold', 42, 60]].forEach(([name, h, s], i) => out.push({
    name: `${name} Smoke Text`, family: 'smoke', input: 'text', canvas: CANVAS, tags: ['smoke', 'mist'],
    description: `Wispy ${String(name).toLowerCase()} smoke curling around soft, half-dissolved letters.`,
    background: [fill('#050507'), fill({ type: 'noise', mode: 'turbulence', scale: 110, seed: i + 70, stops: [[0, 'rgba(0,0,0,0)'], [0.5, hsl(+h, +s, 20) + '66'], [1, hsl(+h, +s, 75) + 'cc']] })],
    text: [{ font: pick(['cinzel', 'great-vibes', 'bebas-neue'], i), fill: { type: 'noise', mode: 'turbulence', scale: 30, seed: i, stops: [[0, hsl(+h, +s, 40) + '66'], [1, '#ffffffee']] }, glows: [{ blur: 0.4, color: hsl(+h, +s, 60) + 'aa', passes: 2 }] }],
    filters: [{ type: 'blur', radius: 1.2 }],
  }));
  return out;
}

export function longShadow(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 10).forEach((hue, i) => out.push({
    name: `${hue.name} Long Shadow`, family: 'flat', input: 'text', canvas: CANVAS, tags: ['flat', 'long shadow'],
    description: `Flat white letters casting a long diagonal ${hue.name.toLowerCase()} shadow across a flat colour field.`,
    background: [fill(tone(hue, 50, 70))],
    text: [{ font: pick(['bebas-neue', 'anton', 'righteous', 'bungee', 'russo-one'], i), transform: 'upper', fill: '#ffffff', extrude: { depth: 0.55, angle: 45, from: tone(hue, 36, 70), to: tone(hue, 46, 70) } }],
  }));
  return out;
}

export function emboss(): Draft[] {
  const out: Draft[] = [];
  const grounds: [string, string][] = [['Paper', '#efeae0'], ['Leather', '#5a3a24'], ['Slate', '#3a4450'], ['Linen', '#e0d8c8'], ['Velvet', '#3a0f2b'], ['Denim', '#2b4a78'], ['Card', '#ffffff'], ['Kraft', '#c8a070']];
  grounds.forEach(([name, c], i) => out.push({
    name: `${name} Letterpress`, family: 'emboss', input: 'text', canvas: CANVAS, tags: ['emboss', 'letterpress'],
    description: `Letters pressed into ${name.toLowerCase()} with a blind emboss and soft inner shadow.`,
    background: [fill(c), fill({ type: 'noise', mode: i % 2 ? 'grain' : 'fbm', scale: 6, seed: i, stops: [[0, 'rgba(0,0,0,0.08)'], [1, 'rgba(255,255,255,0.08)']] })],
    text: [{ font: pick(['playfair-display', 'cinzel', 'abril-fatface', 'lobster'], i), fill: shade(c, -0.08), bevel: { size: 0.035, light: 'rgba(0,0,0,0.45)', dark: 'rgba(255,255,255,0.55)' } }],
  }));
  return out;
}

