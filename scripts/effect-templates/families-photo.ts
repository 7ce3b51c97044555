/** Photo effects (photofunia path family): the client's photo placed in a scene, framed or filtered. */
import { HUES, brickWall, fill, hsl, lin, metal, pick, rad, starField, tone, type Draft } from './kit.js';
import { shade } from './families-material.js';
import type { BackgroundLayer, Filter, ImageLayer } from '../../engine/features/effects/template.generated.js';

const WIDE = { width: 1024, height: 640 };
const SQUARE = { width: 768, height: 768 };
const photo = (extra: Partial<ImageLayer> = {}): BackgroundLayer => ({ type: 'image', fit: 'cover', ...extra });

const draft = (name: string, family: string, description: string, d: Partial<Draft>): Draft => ({
  name, family, description, input: 'image', canvas: WIDE, tags: ['photo', family], background: [], site: 'photofunia', ...d,
} as Draft);

export function photoEffects(): Draft[] {
  const out: Draft[] = [];
  const tables: [string, BackgroundLayer[]][] = [
    ['Wooden Table', [fill({ type: 'noise', mode: 'wood', scale: 70, stretch: 6, seed: 2, stops: [[0, '#8a5a30'], [0.6, '#6a4020'], [1, '#a87040']] })]],
    ['Cork Board', [fill({ type: 'noise', mode: 'grain', stops: [[0, '#a8743f'], [0.5, '#c8945a'], [1, '#e0b070']] })]],
    ['Marble Desk', [fill({ type: 'noise', mode: 'marble', scale: 200, seed: 5, stops: [[0, '#f4f2ee'], [0.85, '#dcd6cc'], [1, '#8a8378']] })]],
    ['Night Sky', [fill(lin([[0, '#05071a'], [1, '#1a1040']])), starField(3, 200)]],
  ];
  tables.forEach(([where, bg], i) => out.push(draft(`Polaroid on ${where}`, 'frame', `The photo as an instant print with a caption, tilted on a ${where.toLowerCase()}.`, {
    input: 'image-text', canvas: SQUARE,
    background: [...bg, photo({ box: { x: 0.5, y: 0.44, w: 0.66, h: 0.62 }, rotate: [-6, 5, -3, 7][i], frame: { width: 22, bottom: 110, paint: '#fbfbf8' }, shadow: { x: 8, y: 14, blur: 24, color: 'rgba(0,0,0,0.5)' } })],
    text: [{ font: 'caveat', box: { x: 0.5, y: 0.86, w: 0.6, h: 0.09 }, rotate: [-6, 5, -3, 7][i], fill: '#2b2b3a' }],
  })));
  const frames: [string, string, BackgroundLayer[]][] = [
    ['Gold Gallery Frame', 'hung in an ornate gold frame on a damask wall', [fill({ type: 'pattern', shape: 'diamonds', colors: ['#5a1f2b', '#6e2a36'], size: 40 })]],
    ['Black Modern Frame', 'in a slim black frame with a white mat on a gallery wall', [fill(lin([[0, '#f4f4f2'], [1, '#dcdcd8']]))]],
    ['Museum Spotlight', 'under a museum spotlight in a dark hall', [fill('#1a1816'), fill(rad([[0, 'rgba(255,240,200,0.35)'], [1, 'rgba(0,0,0,0)']], 0.5, 0.5, 0.1))]],
    ['Brick Loft Frame', 'in a wooden frame on a loft brick wall', brickWall({ name: '', h: 15, s: 40 }, 34)],
  ];
  frames.forEach(([name, where, bg], i) => out.push(draft(name, 'frame', `The photo ${where}.`, {
    background: [...bg, photo({ box: { x: 0.5, y: 0.5, w: 0.5, h: 0.62 }, frame: { width: [34, 8, 26, 20][i], paint: [lin(metal(44, 80), 45), '#111111', lin(metal(30, 30, 0.7)), { type: 'noise', mode: 'wood', scale: 30, stretch: 4, stops: [[0, '#6a4020'], [1, '#a87040']] }][i] as never }, shadow: { x: 0, y: 18, blur: 30, color: 'rgba(0,0,0,0.55)' } })],
  })));
  HUES.slice(0, 6).forEach((hue, i) => out.push(draft(`${hue.name} Neon Photo Frame`, 'neon', `The photo inside a glowing ${hue.name.toLowerCase()} neon frame on a dark wall.`, {
    canvas: SQUARE,
    background: [fill(rad([[0, hsl(hue.h, 40, 14)], [1, '#020203']])), { type: 'shape', shape: i % 2 ? 'circle' : 'rounded', box: { x: 0.5, y: 0.5, w: 0.78, h: 0.78 }, stroke: { width: 10, paint: hsl(hue.h, 100, 80) }, shadow: { x: 0, y: 0, blur: 40, color: tone(hue, 55) } },
      photo({ box: { x: 0.5, y: 0.5, w: 0.7, h: 0.7 }, radius: i % 2 ? 270 : 40 })],
  })));
  const duotones: [string, number[]][] = [
    ['Cyan Magenta Duotone', [0.2, 0.3, 0.1, 0, 80, 0.1, 0.5, 0.2, 0, 10, 0.3, 0.5, 0.3, 0, 90, 0, 0, 0, 1, 0]],
    ['Sepia Tone', [0.393, 0.769, 0.189, 0, 0, 0.349, 0.686, 0.168, 0, 0, 0.272, 0.534, 0.131, 0, 0, 0, 0, 0, 1, 0]],
    ['Cold Blue Tone', [0.2, 0.4, 0.1, 0, 0, 0.25, 0.5, 0.15, 0, 20, 0.3, 0.6, 0.2, 0, 70, 0, 0, 0, 1, 0]],
    ['Infrared Pink', [0.1, 0.6, 0.3, 0, 90, 0.1, 0.3, 0.1, 0, 0, 0.3, 0.4, 0.3, 0, 60, 0, 0, 0, 1, 0]],
    ['Acid Green', [0.2, 0.3, 0.1, 0, 10, 0.3, 0.7, 0.2, 0, 60, 0.1, 0.2, 0.1, 0, 0, 0, 0, 0, 1, 0]],
    ['Sunset Duotone', [0.5, 0.5, 0.2, 0, 60, 0.2, 0.4, 0.1, 0, 10, 0.2, 0.2, 0.3, 0, 50, 0, 0, 0, 1, 0]],
  ];
  duotones.forEach(([name, matrix]) => out.push(draft(`${name} Photo`, 'filter', `The photo recoloured with a ${name.toLowerCase()} colour matrix and soft grain.`, {
    background: [photo()], filters: [{ type: 'matrix', matrix }, { type: 'noise', amount: 0.05 }],
  })));
  const filtered: [string, string, string, Filter[], BackgroundLayer[]][] = [
    ['Pencil Sketch Photo', 'paper', 'The photo redrawn as a grey pencil sketch on paper.', [{ type: 'noise', amount: 0.1 }], [fill('#f8f6f0'), photo({ filter: 'grayscale(1) contrast(1.8) brightness(1.15)', opacity: 0.85, blend: 'multiply' })]],
    ['Charcoal Drawing Photo', 'paper', 'The photo as a dark charcoal drawing with smudged grain.', [{ type: 'noise', amount: 0.16 }, { type: 'vignette', strength: 0.4 }], [fill('#e8e4da'), photo({ filter: 'grayscale(1) contrast(2.4) brightness(0.9)', blend: 'multiply' })]],
    ['Watercolour Photo', 'watercolor', 'The photo softened into a watercolour wash on textured paper.', [{ type: 'blur', radius: 1.5 }], [fill('#fbf8f2'), photo({ filter: 'saturate(1.6) contrast(0.9) brightness(1.1)', opacity: 0.85, blend: 'multiply' })]],
    ['VHS Tape Photo', 'glitch', 'The photo as a worn VHS frame: colour bleed, jitter and scanlines.', [{ type: 'glitch', slices: 10, offset: 18, shift: 5, seed: 4 }, { type: 'scanlines', spacing: 4, opacity: 0.3 }, { type: 'noise', amount: 0.1 }], [photo({ filter: 'saturate(1.4) contrast(1.1)' })]],
    ['Anaglyph 3D Photo', 'glitch', 'The photo split into red and cyan channels like an old 3D print.', [{ type: 'glitch', slices: 0, offset: 0, shift: 10 }], [photo()]],
    ['Mosaic Tiles Photo', 'filter', 'The photo rebuilt from square mosaic tiles with grout lines.', [{ type: 'pixelate', size: 16 }], [photo(), fill({ type: 'pattern', shape: 'grid', colors: ['rgba(0,0,0,0)', 'rgba(40,30,20,0.6)'], size: 16 })]],
    ['Lightning Storm Photo', 'thunder', 'The photo darkened under a storm with lightning bolts.', [{ type: 'vignette', strength: 0.7 }], [photo({ filter: 'brightness(0.6) contrast(1.3) saturate(0.7)' }), { type: 'bolts', count: 3, color: '#ffffff', glow: '#8ab0ff', width: 3, seed: 9 }]],
    ['Burning Photo', 'fire', 'The photo with scorched edges and a ring of fire light.', [{ type: 'vignette', strength: 0.95, color: '#2a0800' }, { type: 'bloom', radius: 8, strength: 0.3 }], [photo({ filter: 'sepia(0.5) contrast(1.2)' }), fill(rad([[0, 'rgba(0,0,0,0)'], [0.6, 'rgba(255,120,0,0.15)'], [0.8, 'rgba(255,80,0,0.7)'], [1, 'rgba(40,0,0,1)']], 0.62))]],
    ['Sparklers Photo', 'new-year', 'The photo framed by glowing sparkler trails at night.', [], [photo({ filter: 'brightness(0.85)' }), { type: 'particles', shape: 'sparkle', count: 90, colors: ['#fff3c0', '#ffd84d', '#ffffff'], size: [2, 7], seed: 12, glow: 10, band: [0, 0.25] }, { type: 'particles', shape: 'sparkle', count: 90, colors: ['#fff3c0', '#ffd84d'], size: [2, 7], seed: 13, glow: 10, band: [0.75, 1] }]],
    ['Dreamy Glow Photo', 'light', 'The photo with a soft dreamy bloom and warm light leaks.', [{ type: 'bloom', radius: 14, strength: 0.6 }], [photo({ filter: 'saturate(1.2) brightness(1.05)' }), fill(lin([[0, 'rgba(255,120,60,0.35)'], [0.5, 'rgba(0,0,0,0)'], [1, 'rgba(255,60,160,0.3)']], 0), { blend: 'screen' } as never)]],
    ['Night Vision Photo', 'sci-fi', 'The photo seen through green night-vision goggles.', [{ type: 'matrix', matrix: [0.1, 0.2, 0.05, 0, 0, 0.3, 0.7, 0.15, 0, 20, 0.1, 0.2, 0.05, 0, 0, 0, 0, 0, 1, 0] }, { type: 'noise', amount: 0.18 }, { type: 'vignette', strength: 0.9 }], [photo()]],
    ['Thermal Camera Photo', 'sci-fi', 'The photo as a false-colour thermal image.', [{ type: 'css', filter: 'invert(1) hue-rotate(180deg) saturate(3)' }, { type: 'scanlines', spacing: 6, opacity: 0.15 }], [photo()]],
  ];
  filtered.forEach(([name, family, description, filters, background]) => out.push(draft(name, family, description, { background, filters })));
  // Overlays the image-manipulation endpoints (/api/image/jail, rainbow, wasted) also serve.
  out.push(draft('Jail Bars Photo', 'overlay', 'The photo behind dark steel jail bars with a cold cell light.', {
    aliases: ['/api/image/jail'],
    canvas: SQUARE, background: [photo({ filter: 'grayscale(0.4) brightness(0.85)' }),
      ...[0.07, 0.21, 0.36, 0.5, 0.64, 0.79, 0.93].map((x): BackgroundLayer => ({ type: 'shape', shape: 'rect', box: { x, y: 0.5, w: 0.035, h: 1 }, fill: lin([[0, '#1a1c1f'], [0.4, '#6b7078'], [1, '#1a1c1f']], 0), shadow: { x: 8, y: 0, blur: 10, color: 'rgba(0,0,0,0.6)' } })),
      fill(lin([[0, 'rgba(255,255,255,0.18)'], [0.5, 'rgba(0,0,0,0)'], [1, 'rgba(0,0,0,0.5)']], 0), { opacity: 0.6 }), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.06, w: 1, h: 0.05 }, fill: '#2a2d31' }, { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.94, w: 1, h: 0.05 }, fill: '#2a2d31' }],
    filters: [{ type: 'vignette', strength: 0.6 }],
  }));
  out.push(draft('Rainbow Overlay Photo', 'overlay', 'The photo washed with a diagonal rainbow gradient.', {
    aliases: ['/api/image/rainbow'],
    canvas: SQUARE, background: [photo(), fill(lin([[0, '#ff0000'], [0.2, '#ff9900'], [0.4, '#ffee00'], [0.6, '#00cc44'], [0.8, '#0066ff'], [1, '#9900ff']], 45), { opacity: 0.38 })],
  }));
  out.push(draft('Wasted Photo', 'overlay', 'The photo drained to grey with a red game-over style caption across the middle.', {
    aliases: ['/api/image/wasted'],
    canvas: SQUARE, background: [photo({ filter: 'grayscale(1) contrast(1.1) brightness(0.8)' }), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.5, w: 1, h: 0.16 }, fill: 'rgba(0,0,0,0.55)' }],
    text: [{ content: 'WASTED', font: 'playfair-display', box: { x: 0.5, y: 0.5, w: 0.6, h: 0.14 }, fill: '#c8102e', outlines: [{ width: 0.03, paint: '#000000' }] }],
  }));
  const scenes: [string, string, BackgroundLayer[], Partial<ImageLayer>][] = [
    ['Big Screen at Night', 'The photo on a giant outdoor screen above a dark city street.', [fill(lin([[0, '#05060f'], [1, '#1a1430']])), { type: 'particles', shape: 'bokeh', count: 50, colors: ['#ffb347', '#ff5f8a', '#5fb0ff'], size: [6, 20], seed: 6, band: [0.7, 1] }], { box: { x: 0.5, y: 0.38, w: 0.62, h: 0.55 }, frame: { width: 14, paint: '#222228' }, shadow: { x: 0, y: 0, blur: 50, color: 'rgba(120,160,255,0.5)' } }],
    ['Billboard at Dusk', 'The photo on a roadside billboard against a dusk sky.', [fill(lin([[0, '#ff9a5f'], [0.6, '#ffd0a0'], [0.61, '#3a3a3a'], [1, '#1a1a1a']])), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.8, w: 0.03, h: 0.4 }, fill: '#2a2a2a' }], { box: { x: 0.5, y: 0.36, w: 0.7, h: 0.5 }, frame: { width: 10, paint: '#f0f0f0' } }],
    ['Magic Card Frame', 'The photo as the art of a fantasy trading card with a title bar.', [fill(lin([[0, '#2b1f14'], [1, '#0f0a05']])), { type: 'shape', shape: 'rounded', box: { x: 0.5, y: 0.5, w: 0.56, h: 0.94 }, fill: lin(metal(40, 50, 0.9)), stroke: { width: 6, paint: '#1a1208' } }], { box: { x: 0.5, y: 0.42, w: 0.48, h: 0.5 }, frame: { width: 6, paint: '#1a1208' } }],
    ['Phone Wallpaper Mockup', 'The photo as the wallpaper of a generic smartphone on a desk.', [fill(lin([[0, '#d8dde3'], [1, '#aab3bd']])), { type: 'shape', shape: 'rounded', box: { x: 0.5, y: 0.5, w: 0.34, h: 0.94 }, fill: '#111114', shadow: { x: 10, y: 20, blur: 30, color: 'rgba(0,0,0,0.4)' } }], { box: { x: 0.5, y: 0.5, w: 0.31, h: 0.86 }, radius: 26 }],
    ['Open Book Page', 'The photo printed on the right page of an open book.', [fill('#3a2a1a'), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.5, w: 0.9, h: 0.86 }, fill: lin([[0, '#f4ecd8'], [0.48, '#e8dcc0'], [0.5, '#b8a888'], [0.52, '#e8dcc0'], [1, '#f4ecd8']], 0) }], { box: { x: 0.72, y: 0.5, w: 0.34, h: 0.6 }, filter: 'sepia(0.4)', opacity: 0.9, blend: 'multiply' }],
    ['Truck Advert', 'The photo wrapped on the side of a delivery truck.', [fill(lin([[0, '#9fd0f0'], [0.7, '#dceef8'], [0.71, '#555'], [1, '#333']])), { type: 'shape', shape: 'rounded', box: { x: 0.45, y: 0.5, w: 0.8, h: 0.5 }, fill: '#f4f4f4' }, { type: 'shape', shape: 'circle', box: { x: 0.2, y: 0.78, w: 0.1, h: 0.16 }, fill: '#111' }, { type: 'shape', shape: 'circle', box: { x: 0.7, y: 0.78, w: 0.1, h: 0.16 }, fill: '#111' }], { box: { x: 0.45, y: 0.5, w: 0.74, h: 0.42 } }],
    ['Christmas Bauble Photo', 'The photo inside a shiny Christmas bauble hanging on a tree.', [fill(rad([[0, '#1f5a3a'], [1, '#051a0f']])), { type: 'particles', shape: 'bokeh', count: 40, colors: ['#ffd84d', '#ff5f5f'], size: [6, 18], seed: 4 }, { type: 'shape', shape: 'circle', box: { x: 0.5, y: 0.55, w: 0.56, h: 0.9 }, fill: '#b3001f', shadow: { x: 0, y: 10, blur: 30, color: 'rgba(0,0,0,0.6)' } }], { box: { x: 0.5, y: 0.55, w: 0.38, h: 0.6 }, radius: 190 }],
    ['Valentine Card Photo', 'The photo in a heart-shaped window on a pink Valentine card.', [fill(rad([[0, '#ffd6e4'], [1, '#ff8ab0']])), fill({ type: 'pattern', shape: 'hearts', colors: ['rgba(0,0,0,0)', 'rgba(255,255,255,0.3)'], size: 56 }), { type: 'shape', shape: 'heart', box: { x: 0.5, y: 0.5, w: 0.62, h: 0.98 }, fill: '#ffffff' }], { box: { x: 0.5, y: 0.46, w: 0.34, h: 0.5 }, radius: 40 }],
  ];
  scenes.forEach(([name, description, background, layer]) => out.push(draft(name, 'frame', description, { background: [...background, photo(layer)] })));
  // Slugs photofunia clients already call (peer-endpoints §6).
  out.push(draft('Underground Poster', 'frame', 'The photo as a poster pasted on a tiled underground station wall under cold light.', {
    slug: 'underground-poster',
    background: [fill({ type: 'pattern', shape: 'bricks', colors: ['#9aa3a8', '#eef1f2', '#e6eaec', '#f2f4f5'], size: 40 }), fill(lin([[0, 'rgba(255,255,255,0.15)'], [1, 'rgba(0,20,30,0.35)']])),
      { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.06, w: 1, h: 0.12 }, fill: '#1f3f8a' },
      photo({ box: { x: 0.5, y: 0.56, w: 0.5, h: 0.68 }, frame: { width: 8, paint: '#ffffff' }, shadow: { x: 4, y: 8, blur: 14, color: 'rgba(0,0,0,0.4)' } })],
  }));
  out.push(draft('Broadway at Night', 'frame', 'The photo on a theatre marquee ringed with glowing bulbs on a night street.', {
    slug: 'broadway-at-night',
    background: [fill(lin([[0, '#05040c'], [1, '#1a0f24']])), { type: 'particles', shape: 'bokeh', count: 40, colors: ['#ffb347', '#ff5f8a', '#5fb0ff'], size: [6, 22], seed: 21, band: [0.75, 1] },
      { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.44, w: 0.72, h: 0.74 }, fill: '#2a0a14', stroke: { width: 10, paint: '#c8a24a' }, shadow: { x: 0, y: 0, blur: 40, color: 'rgba(255,200,80,0.6)' } },
      { type: 'particles', shape: 'dot', count: 36, colors: ['#fff3c0'], size: [4, 5], seed: 22, glow: 12, band: [0.08, 0.1] },
      { type: 'particles', shape: 'dot', count: 36, colors: ['#fff3c0'], size: [4, 5], seed: 23, glow: 12, band: [0.79, 0.81] },
      photo({ box: { x: 0.5, y: 0.44, w: 0.62, h: 0.6 } })],
  }));
  // Photofunia paths bot clients call (test/parity/corpus): original scenes under their names; where
  // a client's slug has underscores (not a template slug), the template carries it as an alias.
  const gold = lin(metal(44, 80), 45);
  const clientScenes: [slug: string, name: string, description: string, Partial<Draft>][] = [
    ['black-white-gallery', 'Black and White Gallery', 'The photo in black and white, in a thin black frame with a wide white mat, under a gallery spotlight.', {
      background: [fill(lin([[0, '#ecebe7'], [1, '#cfcdc7']])), fill(rad([[0, 'rgba(255,250,235,0.6)'], [1, 'rgba(0,0,0,0)']], 0.6, 0.5, 0.05)),
        { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.5, w: 0.5, h: 0.78 }, fill: '#fafaf8', stroke: { width: 10, paint: '#111111' }, shadow: { x: 0, y: 16, blur: 28, color: 'rgba(0,0,0,0.45)' } },
        photo({ box: { x: 0.5, y: 0.5, w: 0.36, h: 0.58 }, filter: 'grayscale(1) contrast(1.15)' })],
    }],
    ['old-camera', 'Old Camera', 'The photo seen through the viewfinder of an old film camera: faded sepia, grain, corner marks and a frame counter.', {
      background: [photo({ filter: 'sepia(0.7) contrast(1.1) brightness(0.95)' }),
        ...([[0.1, 0.12], [0.9, 0.12], [0.1, 0.88], [0.9, 0.88]] as const).flatMap(([x, y]): BackgroundLayer[] => [
          { type: 'shape', shape: 'rect', box: { x: x + (x < 0.5 ? 0.03 : -0.03), y, w: 0.07, h: 0.012 }, fill: 'rgba(255,255,240,0.95)' },
          { type: 'shape', shape: 'rect', box: { x, y: y + (y < 0.5 ? 0.045 : -0.045), w: 0.0075, h: 0.1 }, fill: 'rgba(255,255,240,0.95)' }]),
        { type: 'shape', shape: 'circle', box: { x: 0.5, y: 0.5, w: 0.06, h: 0.096 }, stroke: { width: 3, paint: 'rgba(255,255,240,0.7)' } }],
      filters: [{ type: 'noise', amount: 0.14 }, { type: 'vignette', strength: 0.85 }],
      text: [{ content: '24 / 36', font: 'vt323', box: { x: 0.84, y: 0.94, w: 0.14, h: 0.05 }, fill: 'rgba(255,200,80,0.9)' }],
    }],
    ['smoke-flare', 'Smoke Flare', 'The photo wrapped in drifting clouds of coloured smoke from flares.', {
      background: [photo({ filter: 'brightness(0.8) contrast(1.1)' }),
        fill({ type: 'noise', mode: 'fbm', scale: 180, seed: 31, stops: [[0, 'rgba(255,60,140,0)'], [0.45, 'rgba(255,60,140,0)'], [1, 'rgba(255,60,140,0.95)']] }, { blend: 'screen' } as never),
        fill({ type: 'noise', mode: 'fbm', scale: 220, seed: 47, stops: [[0, 'rgba(255,150,30,0)'], [0.5, 'rgba(255,150,30,0)'], [1, 'rgba(255,150,30,0.9)']] }, { blend: 'screen' } as never),
        fill(lin([[0, 'rgba(0,0,0,0)'], [0.7, 'rgba(120,40,160,0.15)'], [1, 'rgba(120,40,160,0.55)']]))],
      filters: [{ type: 'blur', radius: 0.6 }],
    }],
    ['mirror', 'Mirror', 'The photo as a reflection in an oval gilt mirror hanging on a papered wall.', {
      canvas: SQUARE,
      background: [fill({ type: 'pattern', shape: 'stripes', colors: ['#d9cbb0', '#cdbd9e'], size: 48 }),
        { type: 'shape', shape: 'ellipse', box: { x: 0.5, y: 0.5, w: 0.62, h: 0.86 }, fill: gold, shadow: { x: 0, y: 18, blur: 30, color: 'rgba(0,0,0,0.5)' } },
        photo({ box: { x: 0.5, y: 0.5, w: 0.52, h: 0.76 }, radius: 200, filter: 'brightness(1.05) saturate(0.9)' }),
        fill(lin([[0, 'rgba(255,255,255,0)'], [0.45, 'rgba(255,255,255,0)'], [0.5, 'rgba(255,255,255,0.22)'], [0.56, 'rgba(255,255,255,0)'], [1, 'rgba(255,255,255,0)']], 35), { opacity: 0.9 })],
    }],
    ['frame-and-roses', 'Frame and Roses', 'The photo in a white wooden frame lying among scattered red rose petals.', {
      aliases: ['/api/photofunia/frame_and_roses'],
      background: [fill(lin([[0, '#f3e9e4'], [1, '#e4d3cc']])),
        { type: 'particles', shape: 'heart', count: 70, colors: ['#b3001f', '#d0102e', '#8a0018', '#e2364f'], size: [14, 30], seed: 8 },
        photo({ box: { x: 0.5, y: 0.5, w: 0.46, h: 0.6 }, rotate: -4, frame: { width: 26, paint: '#fbfaf7' }, shadow: { x: 6, y: 14, blur: 24, color: 'rgba(60,0,0,0.4)' } }),
        { type: 'particles', shape: 'heart', count: 18, colors: ['#b3001f', '#d0102e'], size: [16, 28], seed: 9, band: [0.78, 1] }],
    }],
    ['crown', 'Crown', 'A round portrait of the photo in a gold ring, crowned with a jewelled golden crown.', {
      canvas: SQUARE,
      background: [fill(rad([[0, '#4a1030'], [1, '#12030c']])), { type: 'rays', count: 24, colors: ['rgba(255,215,120,0.08)', 'rgba(0,0,0,0)'], cy: 0.58 },
        { type: 'shape', shape: 'circle', box: { x: 0.5, y: 0.6, w: 0.62, h: 0.62 }, fill: gold, shadow: { x: 0, y: 10, blur: 30, color: 'rgba(0,0,0,0.6)' } },
        photo({ box: { x: 0.5, y: 0.6, w: 0.56, h: 0.56 }, radius: 215 }),
        ...[0.36, 0.5, 0.64].map((x): BackgroundLayer => ({ type: 'shape', shape: 'triangle', box: { x, y: 0.17, w: 0.12, h: 0.14 }, fill: gold, stroke: { width: 2, paint: '#7a5a10' } })),
        { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.26, w: 0.34, h: 0.06 }, fill: gold, stroke: { width: 2, paint: '#7a5a10' } },
        ...[[0.36, '#d0102e'], [0.5, '#1f6fe0'], [0.64, '#18a058']].map(([x, c]): BackgroundLayer => ({ type: 'shape', shape: 'diamond', box: { x: x as number, y: 0.26, w: 0.035, h: 0.045 }, fill: c as string })),
        ...[0.36, 0.5, 0.64].map((x): BackgroundLayer => ({ type: 'shape', shape: 'circle', box: { x, y: 0.095, w: 0.025, h: 0.025 }, fill: '#fff3c0' }))],
    }],
    ['streets-of-new-york', 'Streets of New York', 'The photo on a lit billboard above a night street of tall buildings with yellow cabs passing below.', {
      aliases: ['/api/photofunia/streets_of_new_york'],
      background: [fill(lin([[0, '#0a0c1c'], [1, '#23203a']])),
        ...([[0.07, 0.15, 0.9], [0.21, 0.14, 0.7], [0.35, 0.15, 0.82], [0.5, 0.16, 0.95], [0.65, 0.15, 0.78], [0.79, 0.14, 0.88], [0.93, 0.15, 0.72]] as const).map(([x, w, h]): BackgroundLayer => ({ type: 'shape', shape: 'rect', box: { x, y: 1 - h / 2, w: w - 0.01, h }, fill: '#262a44' })),
        { type: 'particles', shape: 'square', count: 160, colors: ['#ffd98a', '#ffe9b8', '#8ab8ff'], size: [3, 5], seed: 17, band: [0.15, 0.8] },
        { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.93, w: 1, h: 0.14 }, fill: '#1a1a1e' },
        ...[0.2, 0.62].map((x): BackgroundLayer => ({ type: 'shape', shape: 'rounded', box: { x, y: 0.9, w: 0.14, h: 0.06 }, fill: '#f5c400' })),
        photo({ box: { x: 0.5, y: 0.42, w: 0.46, h: 0.5 }, frame: { width: 10, paint: '#2a2a30' }, shadow: { x: 0, y: 0, blur: 40, color: 'rgba(255,230,160,0.55)' } })],
    }],
    ['wall-calendar', 'Wall Calendar', 'The photo as the picture of a spiral-bound wall calendar, above a grid of days.', {
      aliases: ['/api/photofunia/calendar'],
      canvas: SQUARE,
      background: [fill(lin([[0, '#e9e6df'], [1, '#d6d2c8']])),
        { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.52, w: 0.7, h: 0.9 }, fill: '#fdfdfb', shadow: { x: 4, y: 12, blur: 22, color: 'rgba(0,0,0,0.35)' } },
        photo({ box: { x: 0.5, y: 0.33, w: 0.62, h: 0.42 } }),
        { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.76, w: 0.62, h: 0.28 }, fill: { type: 'pattern', shape: 'grid', colors: ['#ffffff', '#c9c6bf'], size: 42 } },
        ...[0.3, 0.4, 0.6, 0.7].map((x): BackgroundLayer => ({ type: 'shape', shape: 'circle', box: { x, y: 0.075, w: 0.03, h: 0.03 }, fill: '#2a2a2a', stroke: { width: 3, paint: '#9a9a9a' } }))],
      text: [{ content: 'MTWTFSS', font: 'bebas-neue', letterSpacing: 1.1, box: { x: 0.5, y: 0.59, w: 0.6, h: 0.04 }, fill: '#b3001f' }],
    }],
  ];
  clientScenes.forEach(([slug, name, description, d]) => out.push(draft(name, 'scene', description, { slug, ...d })));
  const texty: [string, string, string, BackgroundLayer[], Partial<ImageLayer>, Draft['text']][] = [
    ['Wanted Poster', 'vintage', 'An old western wanted poster with the photo and a name.', [fill({ type: 'noise', mode: 'fbm', scale: 60, stops: [[0, '#e8d0a0'], [1, '#c8a870']] })], { box: { x: 0.5, y: 0.5, w: 0.58, h: 0.44 }, filter: 'sepia(0.8) contrast(1.2)', frame: { width: 6, paint: '#3a2a1a' } },
      [{ content: 'WANTED', font: 'rye', box: { x: 0.5, y: 0.14, w: 0.8, h: 0.16 }, fill: '#3a2010' }, { source: 'text', font: 'rye', transform: 'upper', box: { x: 0.5, y: 0.86, w: 0.8, h: 0.1 }, fill: '#3a2010' }]],
    ['Daily Newspaper', 'misc', 'A newspaper front page with your headline above the photo.', [fill('#efece4'), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.24, w: 0.92, h: 0.004 }, fill: '#111' }], { box: { x: 0.36, y: 0.62, w: 0.6, h: 0.52 }, filter: 'grayscale(1) contrast(1.2)' },
      [{ content: 'THE DAILY PRESS', font: 'playfair-display', box: { x: 0.5, y: 0.1, w: 0.8, h: 0.12 }, fill: '#111' }, { source: 'text', font: 'abril-fatface', box: { x: 0.5, y: 0.3, w: 0.9, h: 0.1 }, fill: '#111' }]],
    ['Breaking News', 'misc', 'A TV breaking-news frame with the photo and your headline on the ticker.', [fill('#111'), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.92, w: 1, h: 0.1 }, fill: '#f4f4f4' }, { type: 'shape', shape: 'rect', box: { x: 0.2, y: 0.8, w: 0.38, h: 0.1 }, fill: '#c8102e' }], { box: { x: 0.5, y: 0.37, w: 1, h: 0.74 } },
      [{ content: 'BREAKING NEWS', font: 'anton', box: { x: 0.2, y: 0.8, w: 0.34, h: 0.08 }, fill: '#ffffff', shadows: [{ x: 0, y: 0, blur: 0, color: '#c8102e' }] }, { source: 'text', font: 'bebas-neue', transform: 'upper', align: 'left', box: { x: 0.5, y: 0.92, w: 0.9, h: 0.08 }, fill: '#111111' }]],
    ['Top Secret Dossier', 'misc', 'A classified dossier with the photo clipped on and your codename stamped.', [fill('#c8b07a'), { type: 'shape', shape: 'rect', box: { x: 0.5, y: 0.52, w: 0.9, h: 0.86 }, fill: '#f0e6cc' }], { box: { x: 0.3, y: 0.5, w: 0.34, h: 0.56 }, filter: 'grayscale(0.6)', frame: { width: 8, paint: '#ffffff' }, rotate: -3 },
      [{ content: 'TOP SECRET', font: 'special-elite', box: { x: 0.72, y: 0.3, w: 0.4, h: 0.12 }, rotate: -10, fill: '#b3001f', outlines: [{ width: 0.03, paint: '#b3001f' }], opacity: 0.8 }, { source: 'text', font: 'special-elite', box: { x: 0.72, y: 0.6, w: 0.4, h: 0.08 }, fill: '#222' }]],
  ];
  const textyAliases: Record<string, string[]> = { 'Wanted Poster': ['/api/image/wanted'] };
  texty.forEach(([name, family, description, background, layer, text]) => out.push(draft(name, family, description, { aliases: textyAliases[name], input: 'image-text', background: [...background, photo(layer)], text })));
  HUES.slice(0, 6).forEach((hue, i) => {
    const b = HUES[(i + 4) % HUES.length];
    out.push(draft(`${hue.name} Gradient Avatar`, 'logo', `A round avatar of the photo on a ${hue.name.toLowerCase()}-to-${b.name.toLowerCase()} gradient with your name curved below.`, {
      input: 'image-text', canvas: SQUARE,
      background: [fill(lin([[0, tone(hue, 55)], [1, tone(b, 45)]], 45)), { type: 'shape', shape: 'circle', box: { x: 0.5, y: 0.42, w: 0.62, h: 0.62 }, fill: '#ffffff', shadow: { x: 0, y: 10, blur: 30, color: 'rgba(0,0,0,0.35)' } }, photo({ box: { x: 0.5, y: 0.42, w: 0.58, h: 0.58 }, radius: 223 })],
      text: [{ source: 'text', font: pick(['righteous', 'fredoka', 'bebas-neue'], i), transform: 'upper', box: { x: 0.5, y: 0.86, w: 0.8, h: 0.12 }, letterSpacing: 0.1, fill: '#ffffff', shadows: [{ y: 0.06, blur: 0.1, color: 'rgba(0,0,0,0.4)' }] }],
    }));
  });
  return out;
}

