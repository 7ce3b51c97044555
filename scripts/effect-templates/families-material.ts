/** Families built on a material: metal, gold, glitter, gems, 3D, fire, ice, water, wood, stone, sand, candy, balloon, glass, fabric. */
import { HUES, darkWall, fill, hsl, lin, metal, pick, rad, starField, tone, type Draft } from './kit.js';
import type { BackgroundLayer, Paint, TextLayer } from '../../engine/features/effects/template.generated.js';

const CANVAS = { width: 1024, height: 512 };

export function metals(): Draft[] {
  const tints: [string, number, number, number][] = [
    ['Silver', 210, 6, 1], ['Steel Blue', 210, 35, 1], ['Gunmetal', 220, 10, 0.7], ['Rose Metal', 345, 40, 1], ['Copper', 22, 65, 0.9],
    ['Bronze', 35, 50, 0.85], ['Titanium', 35, 14, 0.82], ['Cobalt', 225, 70, 0.9], ['Emerald Metal', 150, 45, 0.9], ['Purple Metal', 275, 45, 0.9],
    ['Black Chrome', 230, 8, 0.5], ['Ice Chrome', 190, 55, 1.05],
  ];
  const looks = ['Bevel', '3D', 'Brushed'];
  const fonts = ['anton', 'russo-one', 'bebas-neue', 'orbitron', 'cinzel', 'abril-fatface'];
  const out: Draft[] = [];
  tints.forEach(([name, h, s, b], i) => looks.forEach((look, j) => {
    const face: Paint = j === 2
      ? { type: 'noise', mode: 'grain', stretch: 20, stops: metal(h, s, b).map(([o, c]) => [o, c]) as [number, string][], scale: 4, seed: i }
      : lin(metal(h, s, b));
    const text: TextLayer = {
      font: pick(fonts, i + j), transform: 'upper', fill: face,
      bevel: { size: 0.04, light: 'rgba(255,255,255,0.8)', dark: 'rgba(0,0,0,0.55)' },
      outlines: [{ width: 0.015, paint: hsl(h, s, 15) }],
      ...(j === 1 ? { extrude: { depth: 0.16, angle: 60, from: hsl(h, s, 38 * b), to: hsl(h, s, 10) } } : {}),
      shadows: [{ x: 0.02, y: 0.06, blur: 0.12, color: 'rgba(0,0,0,0.6)' }],
      ...(j === 2 ? { overlays: [{ paint: lin([[0, 'rgba(255,255,255,0.55)'], [1, 'rgba(255,255,255,0)']]), top: 0.45 }] } : {}),
    };
    out.push({
      name: `${name} ${look} Metal`, family: 'metal', input: 'text', canvas: CANVAS, tags: ['metal', 'chrome', name.toLowerCase()],
      description: `${name} metal letters, ${j === 0 ? 'hard bevel and mirror gradient' : j === 1 ? 'deep 3D extrusion' : 'brushed grain with a gloss line'}, on a dark studio backdrop.`,
      background: [fill(rad([[0, hsl(h, Math.min(s, 30), 22)], [1, '#050506']])), ...(j === 2 ? [fill({ type: 'pattern', shape: 'diamonds', colors: ['rgba(0,0,0,0)', 'rgba(255,255,255,0.04)'], size: 24 })] : [])],
      text: [text],
    });
  }));
  return out;
}

const GOLDS: [string, number, number, number][] = [['Gold', 44, 85, 1], ['Rose Gold', 15, 60, 1.05], ['White Gold', 45, 20, 1.1], ['Antique Gold', 38, 55, 0.8], ['Dark Gold', 40, 70, 0.65], ['Champagne Gold', 36, 45, 1.08]];
export function gold(): Draft[] {
  const backdrops: [string, string, BackgroundLayer[]][] = [
    ['Velvet', 'black velvet', [fill(rad([[0, '#2a2420'], [1, '#050403']]))]],
    ['Sparkle', 'red glitter bokeh', [fill(rad([[0, '#6e0a14'], [1, '#1a0205']])), { type: 'particles', shape: 'bokeh', count: 60, colors: ['#ff5a5a', '#ffb36b', '#ffd9a0'], size: [6, 28], seed: 4 }]],
    ['Marble', 'white marble', [fill({ type: 'noise', mode: 'marble', scale: 220, seed: 8, stops: [[0, '#f7f5f0'], [0.8, '#e6e1d8'], [0.95, '#9c958a'], [1, '#6e675e']] })]],
    ['Damask', 'royal damask', [fill({ type: 'pattern', shape: 'diamonds', colors: ['#1d0f2e', '#2e1a45'], size: 48 }), fill(rad([[0, 'rgba(0,0,0,0)'], [1, 'rgba(0,0,0,0.7)']]))]],
    ['Navy', 'deep navy with gold dust', [fill(lin([[0, '#0a1530'], [1, '#02060f']])), { type: 'particles', shape: 'dot', count: 160, colors: ['#ffd98a', '#fff1c9'], size: [0.5, 2], seed: 12 }]],
  ];
  const fonts = ['cinzel', 'playfair-display', 'abril-fatface', 'great-vibes', 'anton', 'lobster'];
  const out: Draft[] = [];
  GOLDS.forEach(([name, h, s, b], i) => backdrops.forEach(([bname, bdesc, bg], j) => out.push({
    name: `${name} Luxury ${bname}`, family: 'gold', input: 'text', canvas: CANVAS, tags: ['gold', 'luxury'],
    description: `Polished ${name.toLowerCase()} letters with a bevel and glints on ${bdesc}.`,
    background: bg,
    text: [{ font: pick(fonts, i + j), fill: lin(metal(h, s, b), 80), bevel: { size: 0.035, light: 'rgba(255,250,220,0.9)', dark: 'rgba(60,30,0,0.6)' },
      outlines: [{ width: 0.02, paint: hsl(h, s, 18) }], shadows: [{ x: 0, y: 0.05, blur: 0.1, color: 'rgba(0,0,0,0.6)' }],
      overlays: [{ paint: rad([[0, 'rgba(255,255,255,0.5)'], [0.3, 'rgba(255,255,255,0)']], 0.5, 0.3, 0.2) }] }],
    filters: j === 1 ? [{ type: 'vignette', strength: 0.5 }] : undefined,
  })));
  return out;
}

export function glitter(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 12).forEach((hue, i) => [0, 1].forEach((light) => out.push({
    name: `${hue.name} Glitter ${light ? 'Pastel' : 'Night'}`, family: 'gold', input: 'text', canvas: CANVAS, tags: ['glitter', 'sparkle'],
    description: `Fine sparkling ${hue.name.toLowerCase()} glitter letters with star glints on a ${light ? 'pale' : 'dark'} ground.`,
    background: [fill(light ? rad([[0, hsl(hue.h, 60, 96)], [1, hsl(hue.h, 40, 82)]]) : rad([[0, hsl(hue.h, 40, 14)], [1, '#030205']])),
      { type: 'particles', shape: 'sparkle', count: 24, colors: ['#ffffff', tone(hue, 80)], size: [3, 9], seed: i + 30, glow: 6 }],
    text: [{ font: pick(['lobster', 'fredoka', 'pacifico', 'bungee', 'great-vibes', 'chewy'], i + light), fill: { type: 'noise', mode: 'grain', scale: 2, seed: i, stops: [[0, hsl(hue.h, 90, 25)], [0.6, tone(hue, 55)], [0.9, hsl(hue.h, 100, 85)], [1, '#ffffff']] },
      outlines: [{ width: 0.02, paint: hsl(hue.h, 80, light ? 35 : 70) }], shadows: [{ y: 0.04, blur: 0.08, color: 'rgba(0,0,0,0.5)' }] }],
  })));
  return out;
}

export function gems(): Draft[] {
  const gems: [string, number, number][] = [['Sapphire', 220, 90], ['Ruby', 350, 90], ['Emerald', 145, 80], ['Amethyst', 275, 70], ['Topaz', 40, 95], ['Aquamarine', 180, 70], ['Citrine', 55, 90], ['Pink Diamond', 330, 70], ['Onyx', 230, 10], ['Peridot', 85, 75]];
  const out: Draft[] = [];
  gems.forEach(([name, h, s], i) => {
    const facets: Paint = { type: 'conic', angle: i * 17, stops: [[0, hsl(h, s, 80)], [0.12, hsl(h, s, 30)], [0.25, hsl(h, s, 65)], [0.37, hsl(h, s, 20)], [0.5, hsl(h, s, 75)], [0.62, hsl(h, s, 35)], [0.75, hsl(h, s, 90)], [0.87, hsl(h, s, 25)], [1, hsl(h, s, 80)]] };
    out.push({
      name: `${name} Faceted Gem`, family: 'gold', input: 'text', canvas: CANVAS, tags: ['gem', 'jewel'],
      description: `Cut-${name.toLowerCase()} letters with faceted reflections set in a thin gold rim.`,
      background: [fill(rad([[0, hsl(h, 25, 18)], [1, '#040404']]))],
      text: [{ font: pick(['abril-fatface', 'anton', 'cinzel', 'bungee'], i), fill: facets, outlines: [{ width: 0.025, paint: lin(metal(44, 80)) }], glows: [{ blur: 0.25, color: hsl(h, s, 50) }] }],
    });
    out.push({
      name: `${name} Jewel Studded`, family: 'gold', input: 'text', canvas: CANVAS, tags: ['jewelry', 'gem'],
      description: `Letters encrusted with ${name.toLowerCase()} studs on silver, with sparkling glints.`,
      background: [fill(lin([[0, '#14161a'], [1, '#2b2e35']])), { type: 'particles', shape: 'sparkle', count: 18, colors: ['#ffffff'], size: [3, 8], seed: i + 60, glow: 8 }],
      text: [{ font: pick(['bungee', 'fredoka', 'rubik-mono-one', 'luckiest-guy'], i), transform: 'upper', fill: { type: 'pattern', shape: 'dots', colors: [hsl(h, 20, 70), hsl(h, s, 55), '#ffffff'], size: 14 },
        outlines: [{ width: 0.03, paint: lin(metal(210, 6)) }], shadows: [{ y: 0.05, blur: 0.1, color: 'rgba(0,0,0,0.7)' }] }],
    });
  });
  return out;
}

export function threeD(): Draft[] {
  const grads: [string, string, string][] = [
    ['Sunrise', '#ffd34d', '#ff4d6d'], ['Lagoon', '#4dfff0', '#3b5bff'], ['Berry', '#ff6bd6', '#7a2bff'], ['Lime Pop', '#d4ff4d', '#1fbf6b'], ['Peach', '#ffc3a0', '#ff6a88'], ['Ocean', '#6bd5ff', '#1f3fa8'],
    ['Candy Floss', '#ffe0f7', '#a0c4ff'], ['Lava', '#ffe14d', '#d10f0f'], ['Mint', '#d8fff0', '#13b38a'], ['Grape', '#c49bff', '#4b0f8a'], ['Tangerine', '#ffb04d', '#e0431f'], ['Slate', '#e3e9f0', '#596b80'],
  ];
  const styles: [string, string][] = [['3D Block', 'bungee'], ['3D Bubble', 'luckiest-guy'], ['3D Poster', 'anton']];
  const out: Draft[] = [];
  grads.forEach(([name, a, b], i) => styles.forEach(([style, font], j) => {
    out.push({
      name: `${name} ${style}`, family: '3d', input: 'text', canvas: CANVAS, tags: ['3d', 'gradient'],
      description: `${style.replace('3D ', '')} letters with a ${name.toLowerCase()} gradient face and a long shaded 3D extrusion.`,
      background: j === 1 ? [fill(rad([[0, '#ffffff'], [1, '#dfe6ee']]))] : j === 2 ? [fill(lin([[0, b], [1, '#000000']], 120)), fill('rgba(0,0,0,0.55)')] : [fill(lin([[0, '#1b1e2b'], [1, '#0a0b10']])), { type: 'rays', count: 18, colors: ['rgba(255,255,255,0.035)', 'rgba(0,0,0,0)'], cy: 0.6 }],
      text: [{ font, transform: j === 1 ? 'none' : 'upper', fill: lin([[0, a], [1, b]], j === 0 ? 90 : 30),
        extrude: { depth: 0.18 + 0.04 * j, angle: [45, 70, 30][j], from: shade(b, -0.35), to: shade(b, -0.75), ...(j === 1 ? { outline: '#1a1a1a' } : {}) },
        outlines: j === 1 ? [{ width: 0.03, paint: '#1a1a1a' }] : [], shadows: [{ x: 0.1, y: 0.14, blur: 0.2, color: 'rgba(0,0,0,0.35)' }],
        ...(j === 1 ? { overlays: [{ paint: lin([[0, 'rgba(255,255,255,0.7)'], [1, 'rgba(255,255,255,0)']]), top: 0.4 }] } : {}) }],
    });
  }));
  return out;
}

/** Darken (negative) or lighten a #rrggbb colour. */
export function shade(hex: string, k: number): string {
  const n = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `#${n.map((v) => Math.round(k < 0 ? v * (1 + k) : v + (255 - v) * k).toString(16).padStart(2, '0')).join('')}`;
}

export function fire(): Draft[] {
  const flames: [string, string[]][] = [
    ['Orange', ['#fff6c0', '#ffb020', '#ff4a0a', '#6e0a00']], ['Blue', ['#eaffff', '#5fd0ff', '#1f4fff', '#0a0a4a']], ['Green', ['#f0ffe0', '#8aff3b', '#1fa81f', '#053005']],
    ['Purple', ['#fff0ff', '#e08aff', '#8a1fff', '#2a0552']], ['White Hot', ['#ffffff', '#fff2b0', '#ffb347', '#8a2a00']],
  ];
  const modes = ['Flame', 'Lava', 'Hellfire'];
  const out: Draft[] = [];
  flames.forEach(([name, [c0, c1, c2, c3]], i) => modes.forEach((mode, j) => out.push({
    name: `${name} ${mode} Text`, family: 'fire', input: 'text', canvas: CANVAS, tags: ['fire', 'flame', mode.toLowerCase()],
    description: mode === 'Flame' ? `Letters burning with ${name.toLowerCase()} flames and rising embers.` : mode === 'Lava' ? `Molten ${name.toLowerCase()} lava letters with a cracked dark crust.` : `Infernal ${name.toLowerCase()} fire letters with a heavy hot glow over embers.`,
    background: [fill(lin([[0, '#000000'], [1, c3]])), { type: 'particles', shape: 'dot', count: 90, colors: [c1, c2], size: [0.8, 2.5], seed: i * 3 + j, glow: 6 },
      ...(j === 2 ? [fill({ type: 'noise', mode: 'turbulence', scale: 90, seed: i, stops: [[0, 'rgba(0,0,0,0)'], [0.6, c2 + '55'], [1, c1 + 'aa']] }, { blend: 'screen' })] : [])],
    text: [j === 1
      ? { font: pick(['bungee', 'anton', 'russo-one'], i), transform: 'upper', fill: { type: 'noise', mode: 'ridged', scale: 40, seed: i + 11, stops: [[0, '#120605'], [0.55, '#2a0d06'], [0.8, c2], [1, c0]] }, glows: [{ blur: 0.3, color: c2 }], outlines: [{ width: 0.015, paint: c1 }] }
      : { font: pick(j === 0 ? ['bangers', 'anton', 'luckiest-guy'] : ['creepster', 'russo-one', 'cinzel'], i), transform: 'upper', fill: lin([[0, c0], [0.45, c1], [1, c2]]),
        glows: [{ blur: j === 2 ? 0.7 : 0.35, color: c2, passes: 2 }, { blur: 0.15, color: c1 }], outlines: [{ width: 0.015, paint: c3 }] }],
    filters: j === 0 ? [{ type: 'bloom', radius: 10, strength: 0.4 }] : undefined,
  })));
  return out;
}

export function ice(): Draft[] {
  const tints: [string, number][] = [['Arctic', 195], ['Glacier', 210], ['Frost Violet', 250], ['Mint Ice', 165]];
  const looks = ['Frozen', 'Snowcap', 'Crystal', 'Frosted Glass'];
  const out: Draft[] = [];
  tints.forEach(([name, h], i) => looks.forEach((look, j) => out.push({
    name: `${name} ${look} Text`, family: 'ice', input: 'text', canvas: CANVAS, tags: ['ice', 'snow', 'frozen'],
    description: `${look} ${name.toLowerCase()} letters: ${['icy gradient with a frozen crust', 'snow piled on top', 'faceted crystal ice', 'frosted translucent glass'][j]}.`,
    background: [fill(lin([[0, hsl(h, 60, 30)], [1, hsl(h, 70, 8)]])), { type: 'particles', shape: 'snow', count: j === 1 ? 260 : 90, colors: ['#ffffff'], size: [0.8, 3], seed: i + j * 5 }],
    text: [{ font: pick(['orbitron', 'cinzel', 'anton', 'fredoka'], i + j), transform: 'upper',
      fill: j === 2 ? { type: 'conic', stops: [[0, hsl(h, 80, 95)], [0.25, hsl(h, 70, 60)], [0.5, hsl(h, 90, 90)], [0.75, hsl(h, 60, 55)], [1, hsl(h, 80, 95)]] }
        : j === 3 ? hsl(h, 60, 85) + 'aa' : { type: 'noise', mode: j === 0 ? 'cells' : 'fbm', scale: 30, seed: i, stops: [[0, hsl(h, 70, 55)], [0.7, hsl(h, 80, 85)], [1, '#ffffff']] },
      outlines: [{ width: 0.02, paint: hsl(h, 80, 92) }], glows: [{ blur: 0.3, color: hsl(h, 90, 70) }],
      ...(j === 1 ? { overlays: [{ paint: '#ffffff', top: 0.22 }] } : {}),
      ...(j === 3 ? { bevel: { size: 0.05, light: 'rgba(255,255,255,0.9)', dark: 'rgba(0,40,80,0.4)' } } : {}) }],
  })));
  return out;
}

export function water(): Draft[] {
  const seas: [string, number][] = [['Tropical', 180], ['Deep Sea', 215], ['Lagoon', 165], ['Night Ocean', 230]];
  const looks = ['Underwater', 'Bubbles', 'Wave', 'Droplet'];
  const out: Draft[] = [];
  seas.forEach(([name, h], i) => looks.forEach((look, j) => out.push({
    name: `${name} ${look} Text`, family: 'water', input: 'text', canvas: CANVAS, tags: ['water', 'ocean', look.toLowerCase()],
    description: `${name} water look: ${['letters under rippling caustic light', 'letters rising with bubbles', 'letters riding layered waves', 'glossy water-droplet letters'][j]}.`,
    background: [fill(lin([[0, hsl(h, 70, 45)], [1, hsl(h, 80, 10)]])),
      ...(j === 0 ? [fill({ type: 'noise', mode: 'ridged', scale: 70, seed: i, stops: [[0, 'rgba(255,255,255,0)'], [0.85, 'rgba(255,255,255,0.05)'], [1, 'rgba(255,255,255,0.4)']] })] : []),
      ...(j === 1 ? [{ type: 'particles', shape: 'bubble', count: 70, colors: ['rgba(255,255,255,0.6)'], size: [3, 16], seed: i + 4 } as BackgroundLayer] : []),
      ...(j === 2 ? [{ type: 'waves', count: 5, colors: [hsl(h, 60, 35), hsl(h, 70, 28), hsl(h, 80, 20)], amplitude: 18, from: 0.55, to: 0.95, seed: i } as BackgroundLayer] : []),
      ...(j === 3 ? [{ type: 'particles', shape: 'drop', count: 40, colors: ['rgba(255,255,255,0.35)'], size: [3, 8], seed: i + 8 } as BackgroundLayer] : [])],
    text: [{ font: pick(['pacifico', 'fredoka', 'lobster', 'chewy'], i + j), fill: j === 3 ? rad([[0, 'rgba(255,255,255,0.9)'], [1, hsl(h, 80, 60) + 'cc']], 1, 0.35, 0.2) : lin([[0, hsl(h, 90, 85)], [1, hsl(h, 90, 45)]]),
      outlines: [{ width: 0.02, paint: hsl(h, 70, 25) }], shadows: [{ y: 0.05, blur: 0.1, color: hsl(h, 90, 8) + '99' }],
      overlays: [{ paint: lin([[0, 'rgba(255,255,255,0.6)'], [1, 'rgba(255,255,255,0)']]), top: 0.4 }] }],
    filters: j === 0 ? [{ type: 'css', filter: 'saturate(1.2)' }] : undefined,
  })));
  return out;
}

export function nature(): Draft[] {
  const greens: [string, number][] = [['Spring', 110], ['Forest', 140], ['Autumn', 30], ['Jungle', 125]];
  const looks = ['Leaf', 'Grass', 'Moss', 'Floral'];
  const out: Draft[] = [];
  greens.forEach(([name, h], i) => looks.forEach((look, j) => out.push({
    name: `${name} ${look} Text`, family: 'nature', input: 'text', canvas: CANVAS, tags: ['nature', look.toLowerCase()],
    description: `${name} ${look.toLowerCase()} letters: ${['veined leaf texture', 'grassy blades', 'soft moss', 'petals scattered around'][j]} in natural light.`,
    background: [fill(rad([[0, hsl(h + 20, 40, 80)], [1, hsl(h, 40, 35)]])),
      ...(j === 3 ? [{ type: 'particles', shape: 'heart', count: 40, colors: ['#ff8fb1', '#ffd1dc', '#fff0a8'], size: [5, 12], seed: i } as BackgroundLayer] : [{ type: 'particles', shape: 'drop', count: 30, colors: [hsl(h, 60, 40) + '88'], size: [6, 14], seed: i + 2 } as BackgroundLayer])],
    text: [{ font: pick(['fredoka', 'chewy', 'lobster', 'bungee'], i + j), fill: { type: 'noise', mode: j === 0 ? 'marble' : j === 1 ? 'grain' : 'fbm', scale: j === 1 ? 3 : 24, seed: i + j, stops: [[0, hsl(h, 70, 18)], [0.6, hsl(h, 65, 38)], [1, hsl(h + 15, 75, 60)]] },
      outlines: [{ width: 0.02, paint: hsl(h, 60, 12) }], shadows: [{ x: 0.03, y: 0.06, blur: 0.08, color: 'rgba(0,0,0,0.45)' }],
      bevel: { size: 0.03, light: 'rgba(255,255,220,0.5)', dark: 'rgba(0,0,0,0.4)' } }],
  })));
  return out;
}

export function wood(): Draft[] {
  const woods: [string, string[]][] = [['Oak', ['#c89b62', '#a8773f', '#7a5126']], ['Walnut', ['#7a5230', '#5a3a1e', '#3a220e']], ['Pine', ['#e8c990', '#d4a865', '#b08040']], ['Cherry', ['#b8643c', '#94452a', '#62281a']], ['Ebony', ['#4a3a30', '#2e221c', '#18110c']], ['Driftwood', ['#c9c0b0', '#a89d8a', '#7f7666']]];
  const looks = ['Carved', 'Sign', 'Block'];
  const out: Draft[] = [];
  woods.forEach(([name, [a, b, c]], i) => looks.forEach((look, j) => {
    const grain: Paint = { type: 'noise', mode: 'wood', scale: 60, stretch: 6, seed: i + j, stops: [[0, a], [0.5, b], [0.8, c], [1, a]] };
    out.push({
      name: `${name} ${look} Wood`, family: 'wood', input: 'text', canvas: CANVAS, tags: ['wood'],
      description: `${name} wood: ${['letters carved into a grained board', 'painted letters on a plank signboard', 'solid 3D wooden block letters'][j]}.`,
      background: j === 1 ? [fill('#2b3a22'), { type: 'shape', shape: 'rounded', box: { x: 0.5, y: 0.5, w: 0.92, h: 0.8 }, fill: grain, stroke: { width: 8, paint: c }, shadow: { x: 0, y: 10, blur: 20, color: 'rgba(0,0,0,0.6)' } }]
        : j === 0 ? [fill(grain)] : [fill(lin([[0, '#f0ebe3'], [1, '#cfc6b8']]))],
      text: [j === 0
        ? { font: pick(['rye', 'cinzel', 'bebas-neue'], i), transform: 'upper', fill: shade(c, -0.7), bevel: { size: 0.02, light: 'rgba(0,0,0,0.7)', dark: 'rgba(255,230,190,0.45)' } }
        : j === 1 ? { font: pick(['special-elite', 'rye', 'permanent-marker'], i), box: { x: 0.5, y: 0.5, w: 0.8, h: 0.55 }, fill: '#fbf3e4', opacity: 0.92, shadows: [{ x: 0.01, y: 0.02, color: 'rgba(0,0,0,0.35)' }] }
          : { font: pick(['bungee', 'anton', 'rubik-mono-one'], i), transform: 'upper', fill: grain, extrude: { depth: 0.15, angle: 50, from: shade(c, -0.1), to: shade(c, -0.6) }, shadows: [{ x: 0.1, y: 0.12, blur: 0.15, color: 'rgba(0,0,0,0.3)' }] }],
    });
  }));
  return out;
}

export function stone(): Draft[] {
  const stones: [string, string[], 'cells' | 'marble' | 'fbm'][] = [['Granite', ['#4a4a4f', '#77777c', '#a3a3a8'], 'cells'], ['Marble', ['#f4f2ee', '#d8d2c8', '#8a8378'], 'marble'], ['Sandstone', ['#c9a36b', '#b08850', '#8a6436'], 'fbm'], ['Slate', ['#2f3a44', '#46525e', '#66727e'], 'cells'], ['Obsidian', ['#050507', '#1c1a24', '#4a4360'], 'marble'], ['Jade', ['#1f6b4f', '#3a9b74', '#9fe0c0'], 'marble']];
  const looks = ['Carved', 'Slab', 'Cracked'];
  const out: Draft[] = [];
  stones.forEach(([name, [a, b, c], mode], i) => looks.forEach((look, j) => {
    const tex: Paint = { type: 'noise', mode, scale: mode === 'cells' ? 18 : 80, seed: i + 3 * j, stops: [[0, a], [0.6, b], [1, c]] };
    out.push({
      name: `${name} ${look} Stone`, family: 'stone', input: 'text', canvas: CANVAS, tags: ['stone', name.toLowerCase()],
      description: `${name} stone: ${['letters chiselled into a rock face', 'thick 3D stone slab letters', 'rough cracked rock letters with moss shadows'][j]}.`,
      background: j === 0 ? [fill(tex)] : [fill(lin([[0, '#5d6b73'], [1, '#1c2226']])), fill({ type: 'noise', mode: 'fbm', scale: 120, seed: i, stops: [[0, 'rgba(0,0,0,0.3)'], [1, 'rgba(255,255,255,0.08)']] })],
      text: [j === 0
        ? { font: pick(['cinzel', 'abril-fatface', 'anton'], i), transform: 'upper', fill: shade(c, -0.55), bevel: { size: 0.04, light: 'rgba(0,0,0,0.7)', dark: 'rgba(255,255,255,0.5)' } }
        : { font: pick(['anton', 'bungee', 'cinzel'], i + j), transform: 'upper', fill: tex, bevel: { size: 0.04, light: 'rgba(255,255,255,0.45)', dark: 'rgba(0,0,0,0.6)' },
          ...(j === 1 ? { extrude: { depth: 0.12, angle: 60, from: shade(b, -0.3), to: shade(b, -0.7) } } : { outlines: [{ width: 0.02, paint: '#1a1a1a', dash: [0.3, 0.05] as [number, number] }] }),
          shadows: [{ y: 0.08, blur: 0.15, color: 'rgba(0,0,0,0.6)' }] }],
    });
  }));
  return out;
}

export function sand(): Draft[] {
  const sands: [string, number, number][] = [['Golden', 42, 60], ['White', 45, 25], ['Pink', 15, 45], ['Desert', 30, 55]];
  const looks = ['Beach Writing', 'Dune', 'Summer', 'Castle'];
  const out: Draft[] = [];
  sands.forEach(([name, h, s], i) => looks.forEach((look, j) => {
    const grains: Paint = { type: 'noise', mode: 'grain', scale: 2, seed: i + j, stops: [[0, hsl(h, s, 62)], [0.5, hsl(h, s, 72)], [1, hsl(h, s, 84)]] };
    out.push({
      name: `${name} Sand ${look}`, family: 'sand', input: 'text', canvas: CANVAS, tags: ['sand', 'beach', 'summer'],
      description: `${name.toLowerCase()} sand: ${['words traced by hand in wet sand by the surf', 'letters shaped from wind-blown dunes', 'bright summer lettering over sand and sea', 'packed sand-castle block letters'][j]}.`,
      background: j === 0 ? [fill(grains), { type: 'waves', count: 2, colors: ['rgba(255,255,255,0.7)', 'rgba(80,200,220,0.85)'], amplitude: 14, from: 0.02, to: 0.12, seed: i }]
        : j === 2 ? [fill(lin([[0, '#7fd3ff'], [0.45, '#bfeaff'], [0.46, '#1fa0c8'], [0.6, '#4fc0d8'], [0.61, hsl(h, s, 75)], [1, hsl(h, s, 65)]])), { type: 'shape', shape: 'circle', box: { x: 0.85, y: 0.15, w: 0.1, h: 0.2 }, fill: '#fff3a0' }]
          : [fill(lin([[0, hsl(h, s, 80)], [1, hsl(h, s, 55)]])), { type: 'waves', count: 4, colors: [hsl(h, s, 70), hsl(h, s, 64), hsl(h, s, 58)], amplitude: 24, from: 0.6, to: 0.95, seed: i + 1 }],
      text: [j === 0
        ? { font: pick(['caveat', 'satisfy', 'pacifico'], i), fill: hsl(h, s, 48), bevel: { size: 0.04, light: 'rgba(0,0,0,0.35)', dark: 'rgba(255,255,255,0.6)' }, rotate: -4 }
        : j === 2 ? { font: pick(['pacifico', 'lobster', 'luckiest-guy'], i), fill: lin([[0, '#ffe14d'], [1, '#ff6a3d']]), outlines: [{ width: 0.035, paint: '#ffffff' }], shadows: [{ x: 0.04, y: 0.06, color: 'rgba(0,80,120,0.5)' }] }
          : { font: pick(['luckiest-guy', 'bungee', 'chewy'], i + j), transform: 'upper', fill: grains, bevel: { size: 0.04, light: 'rgba(255,255,255,0.5)', dark: 'rgba(80,50,0,0.5)' },
            ...(j === 3 ? { extrude: { depth: 0.1, angle: 70, from: hsl(h, s, 50), to: hsl(h, s, 30) } } : {}), shadows: [{ y: 0.06, blur: 0.1, color: 'rgba(90,60,20,0.5)' }] }],
    });
  }));
  return out;
}

export function sky(): Draft[] {
  const skies: [string, string, string][] = [['Blue Sky', '#4aa8ff', '#cfeaff'], ['Sunset Sky', '#ff7a59', '#ffd6a0'], ['Dawn Sky', '#b29bff', '#ffd6ec'], ['Stormy Sky', '#5a6b7a', '#c0c8d0'], ['Mint Sky', '#5fd6c0', '#e0fff6']];
  const looks = ['Cloud Letters', 'Skywriting', 'Balloon Float'];
  const out: Draft[] = [];
  skies.forEach(([name, top, bottom], i) => looks.forEach((look, j) => out.push({
    name: `${name} ${look}`, family: 'sky', input: 'text', canvas: CANVAS, tags: ['sky', 'clouds'],
    description: `${name}: ${['fluffy cloud-shaped letters', 'white smoke letters written by a plane', 'puffy letters floating between clouds'][j]}.`,
    background: [fill(lin([[0, top], [1, bottom]])), fill({ type: 'noise', mode: 'fbm', scale: 150, seed: i * 3 + j, stops: [[0, 'rgba(255,255,255,0)'], [0.55, 'rgba(255,255,255,0)'], [1, 'rgba(255,255,255,0.9)']] })],
    text: [j === 0
      ? { font: pick(['fredoka', 'chewy'], i), fill: '#ffffff', glows: [{ blur: 0.25, color: '#ffffff', passes: 3 }], shadows: [{ y: 0.06, blur: 0.15, color: 'rgba(60,90,140,0.35)' }] }
      : j === 1 ? { font: pick(['great-vibes', 'sacramento', 'satisfy'], i), fill: 'rgba(255,255,255,0.92)', glows: [{ blur: 0.12, color: '#ffffff', passes: 2 }], curve: 18 }
        : { font: 'luckiest-guy', fill: rad([[0, '#ffffff'], [1, shade(top, -0.1)]], 0.8, 0.4, 0.3), outlines: [{ width: 0.03, paint: '#ffffff' }], shadows: [{ x: 0.05, y: 0.08, blur: 0.12, color: 'rgba(0,0,0,0.25)' }] }],
  })));
  return out;
}

export function candy(): Draft[] {
  const sets: [string, string, string][] = [['Peppermint', '#ffffff', '#e0182d'], ['Bubblegum', '#ffd1ec', '#ff4fae'], ['Lemon', '#fff7c2', '#ffcc00'], ['Blueberry', '#dbe8ff', '#3a5bff'], ['Mint', '#e3fff2', '#19c27a'], ['Grape', '#f0e0ff', '#8a2be2'], ['Orange Soda', '#fff0d9', '#ff7a00'], ['Cotton Candy', '#d6f3ff', '#ff8fd0'], ['Licorice', '#3a3a3a', '#111111'], ['Watermelon', '#ffd6dc', '#1fa34a']];
  const out: Draft[] = [];
  sets.forEach(([name, a, b], i) => {
    out.push({
      name: `${name} Candy Stripe`, family: 'candy', input: 'text', canvas: CANVAS, tags: ['candy', 'sweet'],
      description: `Glossy ${name.toLowerCase()} candy-stripe letters with a sugar shine.`,
      background: [fill(rad([[0, '#fff7fb'], [1, shade(a, -0.15)]])), { type: 'particles', shape: 'dot', count: 80, colors: [b, '#ffd84d', '#5fd0ff'], size: [2, 5], seed: i }],
      text: [{ font: pick(['chewy', 'fredoka', 'luckiest-guy'], i), fill: { type: 'pattern', shape: 'diagonal', colors: [a, b], size: 36 }, outlines: [{ width: 0.04, paint: '#ffffff' }, { width: 0.02, paint: shade(b, -0.3) }],
        overlays: [{ paint: lin([[0, 'rgba(255,255,255,0.75)'], [1, 'rgba(255,255,255,0)']]), top: 0.45 }], shadows: [{ x: 0.03, y: 0.07, blur: 0.1, color: 'rgba(0,0,0,0.3)' }] }],
    });
    out.push({
      name: `${name} Jelly`, family: 'candy', input: 'text', canvas: CANVAS, tags: ['candy', 'jelly'],
      description: `Translucent ${name.toLowerCase()} jelly letters with a wobbly highlight and soft shadow.`,
      background: [fill(lin([[0, a], [1, shade(a, -0.2)]])), fill({ type: 'pattern', shape: 'dots', colors: ['rgba(0,0,0,0)', 'rgba(255,255,255,0.5)'], size: 28 })],
      text: [{ font: pick(['fredoka', 'chewy', 'bungee'], i + 1), fill: rad([[0, shade(b, 0.4)], [1, b + 'dd']], 0.9, 0.4, 0.3), bevel: { size: 0.06, light: 'rgba(255,255,255,0.7)', dark: 'rgba(0,0,0,0.25)' },
        shadows: [{ y: 0.08, blur: 0.12, color: b + '66' }] }],
    });
  });
  return out;
}

export function balloon(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 12).forEach((hue, i) => [0, 1].forEach((foil) => out.push({
    name: `${hue.name} ${foil ? 'Foil' : 'Latex'} Balloon`, family: 'balloon', input: 'text', canvas: CANVAS, tags: ['balloon', 'party'],
    description: `Inflated ${foil ? 'metallic foil' : 'matte latex'} ${hue.name.toLowerCase()} balloon letters with ${foil ? 'crinkled highlights' : 'a soft sheen'} and confetti.`,
    // Foil: a dark party backdrop of the complementary hue makes each colour read on its own.
    background: [fill(foil ? rad([[0, hsl((hue.h + 180) % 360, 45, 28)], [1, hsl((hue.h + 180) % 360, 50, 8)]]) : rad([[0, hsl(hue.h, 50, 92)], [1, hsl(hue.h, 40, 80)]])),
      { type: 'particles', shape: foil ? 'sparkle' : 'confetti', count: foil ? 40 : 70, colors: [tone(hue, 60), '#ffd84d', '#4dd2ff', '#ff6b9a'], size: foil ? [2, 6] : [3, 6], seed: i + foil, glow: foil ? 6 : 0 }],
    text: [{ font: pick(['fredoka', 'chewy'], i), fill: foil ? lin([[0, tone(hue, 88)], [0.3, tone(hue, 62)], [0.5, tone(hue, 38)], [0.7, tone(hue, 70)], [1, tone(hue, 92)]], 70) : rad([[0, tone(hue, 75)], [1, tone(hue, 42)]], 0.9, 0.35, 0.25),
      outlines: [{ width: 0.012, paint: tone(hue, 30) }], bevel: { size: 0.08, light: 'rgba(255,255,255,0.8)', dark: 'rgba(0,0,0,0.3)' },
      shadows: [{ x: 0.04, y: 0.1, blur: 0.15, color: 'rgba(0,0,0,0.25)' }], letterSpacing: -0.02 }],
  })));
  return out;
}

export function glass(): Draft[] {
  const out: Draft[] = [];
  HUES.slice(0, 10).forEach((hue, i) => [0, 1].forEach((broken) => out.push({
    name: `${hue.name} ${broken ? 'Shattered' : 'Clear'} Glass`, family: 'glass', input: 'text', canvas: CANVAS, tags: ['glass'],
    description: `${broken ? 'Cracked' : 'Clear'} ${hue.name.toLowerCase()}-tinted glass letters with bright edges${broken ? ' and shard lines' : ''} over a blurred backdrop.`,
    background: broken
      ? [fill(rad([[0, hsl(hue.h, 30, 16)], [1, '#020203']])), fill({ type: 'noise', mode: 'cells', scale: 70, seed: i, stops: [[0, hsl(hue.h, 80, 80) + '66'], [0.12, 'rgba(255,255,255,0)'], [1, 'rgba(255,255,255,0)']] })]
      : [fill(lin([[0, hsl(hue.h, 40, 25)], [1, hsl((hue.h + 60) % 360, 50, 12)]])), { type: 'particles', shape: 'bokeh', count: 30, colors: [tone(hue, 70), '#ffffff'], size: [10, 40], seed: i }],
    text: [{ font: pick(['anton', 'bungee', 'righteous'], i), transform: 'upper', fill: hsl(hue.h, 80, 80) + '40', outlines: broken ? [{ width: 0.012, paint: '#ffffff', dash: [0.25, 0.04] }] : [{ width: 0.012, paint: 'rgba(255,255,255,0.95)' }],
      bevel: { size: 0.04, light: 'rgba(255,255,255,0.9)', dark: hsl(hue.h, 60, 20) + '80' }, overlays: [{ paint: lin([[0, 'rgba(255,255,255,0.5)'], [0.5, 'rgba(255,255,255,0)']], 45) }],
      shadows: [{ y: 0.05, blur: 0.1, color: 'rgba(0,0,0,0.3)' }], skewX: broken ? 6 : 0 }],
    filters: broken ? [{ type: 'glitch', slices: 6, offset: 8, seed: i }] : undefined,
  })));
  return out;
}

export function fabric(): Draft[] {
  const kinds: [string, BackgroundLayer[], TextLayer][] = [];
  const cloth = (c: string[], shape: 'weave' | 'crosshatch' | 'diagonal' | 'zigzag', size = 8) => fill({ type: 'pattern', shape, colors: c, size });
  const stitch = (font: string, color: string): TextLayer => ({ font, fill: color, outlines: [{ width: 0.03, paint: shade(color, -0.4), dash: [0.06, 0.05] }], bevel: { size: 0.03, light: 'rgba(255,255,255,0.4)', dark: 'rgba(0,0,0,0.4)' }, shadows: [{ y: 0.03, blur: 0.05, color: 'rgba(0,0,0,0.5)' }] });
  const threads = ['#e8c547', '#e04a4a', '#ffffff', '#4aa3e0'];
  threads.forEach((t, i) => kinds.push([`${['Gold', 'Red', 'White', 'Blue'][i]} Thread Denim`, [cloth(['#2b4a78', '#3a5f94', '#24406a'], 'diagonal', 6)], stitch(pick(['lobster', 'pacifico', 'bungee', 'satisfy'], i), t)]));
  threads.forEach((t, i) => kinds.push([`${['Gold', 'Red', 'White', 'Blue'][i]} Embroidery on Linen`, [cloth(['#efe6d2', '#e0d4ba', '#f6efe0'], 'weave', 6)], stitch(pick(['great-vibes', 'lobster', 'caveat', 'pacifico'], i), t === '#ffffff' ? '#2a6e4a' : t)]));
  const knit = ['#c8374a', '#2d6e4e', '#3b4fa0', '#d9a02b'];
  knit.forEach((k, i) => kinds.push([`${['Red', 'Green', 'Navy', 'Mustard'][i]} Knit Wool`, [cloth([k, shade(k, -0.15), shade(k, 0.1)], 'zigzag', 14)], { font: 'chewy', fill: { type: 'pattern', shape: 'zigzag', colors: ['#fff8ec', '#e8dcc8'], size: 10 }, outlines: [{ width: 0.02, paint: shade(k, -0.4) }], shadows: [{ y: 0.04, blur: 0.06, color: 'rgba(0,0,0,0.4)' }] }]));
  const camo = [['#4b5320', '#6b705c', '#2f3a1f', '#a5a58d'], ['#c2b280', '#8b7d5b', '#5c4f36', '#e0d6b0'], ['#3c4a5a', '#5e6e7e', '#23303c', '#8c9aa8'], ['#5a3e36', '#8a6a5a', '#2e1f1a', '#b89a88']];
  camo.forEach(([a, b, c, d], i) => kinds.push([`${['Woodland', 'Desert', 'Urban', 'Earth'][i]} Camouflage`, [fill(lin([[0, '#1a1a16'], [1, '#2e2e26']]))], { font: pick(['anton', 'russo-one', 'bebas-neue', 'bungee'], i), transform: 'upper', fill: { type: 'noise', mode: 'cells', scale: 26, seed: i, stops: [[0, a], [0.35, b], [0.65, c], [1, d]] }, outlines: [{ width: 0.02, paint: '#111111' }], shadows: [{ x: 0.03, y: 0.05, blur: 0.06, color: 'rgba(0,0,0,0.6)' }] }]));
  return kinds.map(([name, bg, text]) => ({
    name, family: 'fabric', input: 'text', canvas: CANVAS, tags: ['fabric', 'textile'],
    description: `${name}: textile lettering with stitched edges and woven texture.`,
    background: bg, text: [text],
  }));
}
