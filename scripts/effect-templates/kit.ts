/**
 * Building blocks for the template generator: colour maths, palettes, and small
 * recipes (metal gradient, backdrop, neon text...) that families combine.
 */
import type { BackgroundLayer, Paint, Stops, Template, TextLayer } from '../../engine/features/effects/template.generated.js';

export type Draft = Omit<Template, 'site' | 'slug'> & { slug?: string; site?: Template['site'] };

export function hsl(h: number, s: number, l: number): string {
  s /= 100;
  l /= 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return `#${[f(0), f(8), f(4)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A named hue used across families. */
export interface Hue {
  name: string;
  h: number;
  s?: number;
}
export const HUES: Hue[] = [
  { name: 'Pink', h: 320 },
  { name: 'Cyan', h: 186 },
  { name: 'Red', h: 355 },
  { name: 'Green', h: 130 },
  { name: 'Blue', h: 218 },
  { name: 'Purple', h: 275 },
  { name: 'Orange', h: 28 },
  { name: 'Yellow', h: 52 },
  { name: 'Teal', h: 168 },
  { name: 'Magenta', h: 300 },
  { name: 'Lime', h: 90 },
  { name: 'Violet', h: 255 },
  { name: 'Crimson', h: 345, s: 80 },
  { name: 'Aqua', h: 195 },
  { name: 'Amber', h: 40 },
  { name: 'Rose', h: 335, s: 70 },
];

export const tone = (hue: Hue, l: number, s = hue.s ?? 95) => hsl(hue.h, s, l);

export function metal(hue: number, sat: number, bright = 1): Stops {
  const c = (l: number) => hsl(hue, sat, Math.min(98, l * bright));
  return [
    [0, c(96)],
    [0.3, c(70)],
    [0.48, c(40)],
    [0.52, c(22)],
    [0.7, c(60)],
    [0.85, c(88)],
    [1, c(50)],
  ];
}

export const lin = (stops: Stops, angle = 90): Paint => ({ type: 'linear', angle, stops });
export const rad = (stops: Stops, r = 0.75, cx = 0.5, cy = 0.5): Paint => ({ type: 'radial', stops, r, cx, cy });
export const fill = (paint: Paint, extra: Partial<BackgroundLayer> = {}): BackgroundLayer => ({ type: 'fill', paint, ...extra }) as BackgroundLayer;

export const darkWall = (hue: Hue): BackgroundLayer[] => [
  fill(
    rad(
      [
        [0, hsl(hue.h, 40, 16)],
        [1, hsl(hue.h, 30, 4)],
      ],
      0.8,
    ),
  ),
  fill({
    type: 'noise',
    mode: 'grain',
    stops: [
      [0, 'rgba(0,0,0,0)'],
      [1, 'rgba(255,255,255,0.06)'],
    ],
    seed: hue.h,
  }),
];
export const brickWall = (hue: Hue, l = 14): BackgroundLayer[] => [
  fill({ type: 'pattern', shape: 'bricks', colors: [hsl(hue.h, 15, l - 6), hsl(hue.h, 25, l + 6), hsl(hue.h, 12, l - 4), hsl(hue.h, 22, l + 2)], size: 72 }),
  fill(
    rad(
      [
        [0, 'rgba(0,0,0,0)'],
        [1, 'rgba(0,0,0,0.75)'],
      ],
      0.7,
    ),
  ),
];
export const starField = (seed: number, count = 220): BackgroundLayer => ({
  type: 'particles',
  shape: 'dot',
  count,
  colors: ['#ffffff', '#cfe3ff', '#ffe9c9'],
  size: [0.4, 1.8],
  seed,
});

/** Neon tube text: pale core, coloured outline glow. */
export function neonText(font: string, hue: Hue, extra: Partial<TextLayer> = {}): TextLayer {
  return {
    font,
    fill: hsl(hue.h, 100, 92),
    glows: [
      { blur: 0.45, color: tone(hue, 55), stroke: 0.05, passes: 2 },
      { blur: 0.12, color: tone(hue, 65), stroke: 0.03 },
    ],
    outlines: [{ width: 0.018, paint: tone(hue, 72) }],
    ...extra,
  };
}

export const title = (s: string) => s.replace(/(^|[\s-])(\w)/g, (_m, a, b) => a + b.toUpperCase());
export const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
export const pick = <T>(list: T[], i: number): T => list[i % list.length];
