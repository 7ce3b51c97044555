/**
 * One-off comparison behind engine/features/effects/README.md: the same "hard" effects
 * (neon glow, extruded chrome, turbulence/noise background) drawn with Skia
 * (@napi-rs/canvas) and with resvg (SVG filters), plus the cost of each encoder.
 * Run: node --import tsx bench/effects/renderer-compare.ts
 */
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const anton = require.resolve('@expo-google-fonts/anton/400Regular/Anton_400Regular.ttf');
GlobalFonts.registerFromPath(anton, 'Anton');
const W = 1024,
  H = 512,
  RUNS = 15;

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
async function time(fn: () => unknown | Promise<unknown>) {
  const t: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  return median(t).toFixed(1);
}

function skiaNeon() {
  const c = createCanvas(W, H);
  const g = c.getContext('2d');
  g.fillStyle = '#0b0614';
  g.fillRect(0, 0, W, H);
  g.font = '200px Anton';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (const [blur, col] of [
    [40, '#ff2bd6'],
    [20, '#ff2bd6'],
    [6, '#ffffff'],
  ] as const) {
    g.shadowBlur = blur;
    g.shadowColor = col;
    g.strokeStyle = col;
    g.lineWidth = 8;
    g.strokeText('MANIFOLD', W / 2, H / 2);
  }
  g.shadowBlur = 0;
  g.fillStyle = '#fff';
  g.fillText('MANIFOLD', W / 2, H / 2);
  return c;
}
function skiaChrome() {
  const c = createCanvas(W, H);
  const g = c.getContext('2d');
  const bg = g.createRadialGradient(W / 2, H / 2, 10, W / 2, H / 2, W / 1.5);
  bg.addColorStop(0, '#333');
  bg.addColorStop(1, '#000');
  g.fillStyle = bg;
  g.fillRect(0, 0, W, H);
  g.font = '200px Anton';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (let d = 24; d > 0; d--) {
    g.fillStyle = `rgb(${40 + d * 3},${40 + d * 3},${50 + d * 3})`;
    g.fillText('MANIFOLD', W / 2 + d, H / 2 + d);
  }
  const fg = g.createLinearGradient(0, H / 2 - 100, 0, H / 2 + 100);
  for (const [o, col] of [
    [0, '#fff'],
    [0.45, '#9aa'],
    [0.5, '#223'],
    [0.7, '#ccd'],
    [1, '#fff'],
  ] as const)
    fg.addColorStop(o, col);
  g.fillStyle = fg;
  g.fillText('MANIFOLD', W / 2, H / 2);
  g.lineWidth = 3;
  g.strokeStyle = '#111';
  g.strokeText('MANIFOLD', W / 2, H / 2);
  return c;
}
function skiaNoise() {
  const c = createCanvas(W, H);
  const g = c.getContext('2d');
  const img = g.createImageData(W, H);
  let s = 1;
  for (let i = 0; i < img.data.length; i += 4) {
    s = (s * 1103515245 + 12345) >>> 0;
    const v = s >>> 24;
    img.data[i] = v;
    img.data[i + 1] = v / 2;
    img.data[i + 2] = 40;
    img.data[i + 3] = 255;
  }
  g.putImageData(img, 0, 0);
  g.filter = 'blur(2px)';
  g.drawImage(c, 0, 0);
  g.filter = 'none';
  g.font = '200px Anton';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillStyle = '#fff';
  g.fillText('MANIFOLD', W / 2, H / 2);
  return c;
}

const text = `<text x="512" y="256" text-anchor="middle" dominant-baseline="central" font-family="Anton" font-size="200"`;
const svgNeon = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><filter id="g" x="-20%" y="-50%" width="140%" height="200%"><feGaussianBlur stdDeviation="20" result="a"/><feGaussianBlur in="SourceGraphic" stdDeviation="10" result="b"/><feMerge><feMergeNode in="a"/><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter></defs><rect width="100%" height="100%" fill="#0b0614"/><g filter="url(#g)">${text} fill="#fff" stroke="#ff2bd6" stroke-width="8">MANIFOLD</text></g></svg>`;
const layers = Array.from(
  { length: 24 },
  (_, i) => `${text.replace('x="512" y="256"', `x="${536 - i}" y="${280 - i}"`)} fill="rgb(${112 - i * 3},${112 - i * 3},${122 - i * 3})">MANIFOLD</text>`,
).join('');
const svgChrome = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="m" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff"/><stop offset="0.45" stop-color="#9aa"/><stop offset="0.5" stop-color="#223"/><stop offset="0.7" stop-color="#ccd"/><stop offset="1" stop-color="#fff"/></linearGradient><radialGradient id="bg"><stop offset="0" stop-color="#333"/><stop offset="1" stop-color="#000"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#bg)"/>${layers}${text} fill="url(#m)" stroke="#111" stroke-width="3">MANIFOLD</text></svg>`;
const svgNoise = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><filter id="n"><feTurbulence baseFrequency="0.8" numOctaves="3"/></filter><rect width="100%" height="100%" filter="url(#n)"/>${text} fill="#fff">MANIFOLD</text></svg>`;
const resvg = (svg: string) => new Resvg(svg, { font: { fontFiles: [anton], loadSystemFonts: false, defaultFontFamily: 'Anton' } }).render();

const rows: string[] = [];
for (const [name, draw, svg] of [
  ['neon glow', skiaNeon, svgNeon],
  ['chrome extrusion', skiaChrome, svgChrome],
  ['noise bg', skiaNoise, svgNoise],
] as const) {
  const c = draw();
  const raw = () => sharp(c.data(), { raw: { width: W, height: H, channels: 4 } });
  rows.push(
    `| ${name} | skia draw+flush ${await time(() => draw().data())} | resvg draw ${await time(() => resvg(svg))} | ` +
      `skia png ${await time(() => c.encode('png'))} | skia webp ${await time(() => c.encode('webp', 90))} | skia jpeg ${await time(() => c.encode('jpeg', 90))} | ` +
      `sharp png(z1,nofilter) ${await time(() => raw().png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer())} | ` +
      `sharp png(z6) ${await time(() => raw().png({ compressionLevel: 6 }).toBuffer())} | sharp webp ${await time(() => raw().webp({ quality: 90, effort: 0 }).toBuffer())} | ` +
      `sharp jpeg ${await time(() => raw().flatten().jpeg({ quality: 90 }).toBuffer())} |`,
  );
}
console.log(rows.join('\n'));
