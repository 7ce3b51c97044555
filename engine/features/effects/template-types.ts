/**
 * Types of a template file (templates/<slug>.yaml), mirroring
 * engine/features/effects/template.schema.json. Lengths of text decorations are in em
 * (multiples of the fitted font size) so a long text keeps the same look;
 * everything else is in pixels of the template's own canvas, scaled when a
 * client asks for another size.
 */

export type Color = string;
/** Colour stops: [offset 0..1, colour]. */
export type Stops = [number, Color][];

export interface LinearPaint {
  type: 'linear';
  angle?: number;
  stops: Stops;
}
export interface RadialPaint {
  type: 'radial';
  cx?: number;
  cy?: number;
  r?: number;
  stops: Stops;
}
export interface ConicPaint {
  type: 'conic';
  cx?: number;
  cy?: number;
  angle?: number;
  stops: Stops;
}
export type PatternShape =
  | 'stripes'
  | 'diagonal'
  | 'dots'
  | 'checker'
  | 'grid'
  | 'bricks'
  | 'hex'
  | 'zigzag'
  | 'waves'
  | 'scales'
  | 'hearts'
  | 'stars'
  | 'planks'
  | 'halftone'
  | 'weave'
  | 'crosshatch'
  | 'diamonds';
export interface PatternPaint {
  type: 'pattern';
  shape: PatternShape;
  colors: Color[];
  size?: number;
  line?: number;
}
export type NoiseMode = 'fbm' | 'turbulence' | 'ridged' | 'wood' | 'marble' | 'grain' | 'cells';
export interface NoisePaint {
  type: 'noise';
  mode?: NoiseMode;
  scale?: number;
  octaves?: number;
  stops: Stops;
  seed?: number;
  /** Stretch the noise along x (>1) or y (<1), e.g. for brushed metal or wood grain. */
  stretch?: number;
}
export type Paint = Color | LinearPaint | RadialPaint | ConicPaint | PatternPaint | NoisePaint;

export type Blend =
  | 'source-over'
  | 'source-atop'
  | 'multiply'
  | 'screen'
  | 'overlay'
  | 'lighter'
  | 'soft-light'
  | 'hard-light'
  | 'color-dodge'
  | 'color-burn'
  | 'difference'
  | 'darken'
  | 'lighten';

/** A rectangle as fractions of the canvas: centre x/y, width, height. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type ParticleShape = 'dot' | 'star' | 'sparkle' | 'heart' | 'bokeh' | 'snow' | 'square' | 'confetti' | 'bubble' | 'drop';
export type ShapeKind = 'circle' | 'ellipse' | 'rect' | 'rounded' | 'shield' | 'hexagon' | 'star' | 'ribbon' | 'heart' | 'diamond' | 'burst' | 'triangle';

interface LayerBase {
  opacity?: number;
  blend?: Blend;
}
export interface FillLayer extends LayerBase {
  type: 'fill';
  paint: Paint;
}
export interface ParticlesLayer extends LayerBase {
  type: 'particles';
  shape: ParticleShape;
  count: number;
  colors: Color[];
  size: [number, number];
  seed?: number;
  glow?: number;
  /** Restrict to a band of the canvas height, as fractions. */
  band?: [number, number];
}
export interface RaysLayer extends LayerBase {
  type: 'rays';
  count: number;
  colors: Color[];
  cx?: number;
  cy?: number;
  spin?: number;
}
export interface GridLayer extends LayerBase {
  type: 'grid';
  color: Color;
  spacing: number;
  width?: number;
  /** Retro floor: lines converge towards this horizon (fraction of height). */
  horizon?: number;
  glow?: number;
}
export interface ShapeLayer extends LayerBase {
  type: 'shape';
  shape: ShapeKind;
  box: Box;
  fill?: Paint;
  rotate?: number;
  stroke?: { width: number; paint: Paint };
  shadow?: { x: number; y: number; blur: number; color: Color };
}
export interface CodeRainLayer extends LayerBase {
  type: 'code-rain';
  color: Color;
  head?: Color;
  columns: number;
  seed?: number;
}
export interface BoltsLayer extends LayerBase {
  type: 'bolts';
  count: number;
  color: Color;
  glow?: Color;
  width?: number;
  seed?: number;
}
export interface WavesLayer extends LayerBase {
  type: 'waves';
  count: number;
  colors: Color[];
  amplitude: number;
  from?: number;
  to?: number;
  seed?: number;
}
export interface ImageLayer extends LayerBase {
  type: 'image';
  box?: Box;
  fit?: 'cover' | 'contain';
  rotate?: number;
  radius?: number;
  /** CSS filter string applied to the photo (e.g. "grayscale(1) contrast(1.3)"). */
  filter?: string;
  frame?: { width: number; paint: Paint; bottom?: number };
  shadow?: { x: number; y: number; blur: number; color: Color };
}
export type BackgroundLayer = FillLayer | ParticlesLayer | RaysLayer | GridLayer | ShapeLayer | CodeRainLayer | BoltsLayer | WavesLayer | ImageLayer;

export interface Outline {
  width: number;
  paint: Paint;
  dash?: [number, number];
  join?: 'round' | 'miter' | 'bevel';
}
export interface Shadow {
  x?: number;
  y?: number;
  blur?: number;
  color: Color;
}
/** A halo: the letters (or, with `stroke`, their outline of that width in em) blurred in a colour. */
export interface Glow {
  blur: number;
  color: Color;
  passes?: number;
  stroke?: number;
}
export interface Extrude {
  depth: number;
  angle?: number;
  from: Color;
  to?: Color;
  outline?: Color;
}

export interface TextLayer {
  /** Which param supplies the text; `content` gives fixed text instead. */
  source?: 'text' | 'text1' | 'text2';
  content?: string;
  font: string;
  transform?: 'upper' | 'lower' | 'none';
  box?: Box;
  align?: 'center' | 'left' | 'right';
  maxSize?: number;
  letterSpacing?: number;
  /** Total arc angle in degrees; positive arches up. */
  curve?: number;
  rotate?: number;
  skewX?: number;
  skewY?: number;
  fill: Paint;
  outlines?: Outline[];
  shadows?: Shadow[];
  glows?: Glow[];
  extrude?: Extrude;
  bevel?: { size: number; light: Color; dark: Color };
  /** Paint laid over the letter faces only (gloss, grain, sparkle). */
  overlays?: { paint: Paint; blend?: Blend; opacity?: number; top?: number }[];
  reflection?: { opacity: number; gap?: number };
  opacity?: number;
  blend?: Blend;
}

export type Filter =
  | { type: 'blur'; radius: number }
  | { type: 'noise'; amount: number; mono?: boolean; seed?: number }
  | { type: 'glitch'; slices: number; offset: number; shift?: number; seed?: number }
  | { type: 'vignette'; strength: number; color?: Color }
  | { type: 'matrix'; matrix: number[] }
  | { type: 'css'; filter: string }
  | { type: 'scanlines'; spacing: number; opacity: number }
  | { type: 'pixelate'; size: number }
  | { type: 'bloom'; radius: number; strength: number };

export type TemplateInput = 'text' | 'text2' | 'image' | 'image-text';
export type Site = 'ephoto360' | 'textpro' | 'photooxy' | 'photofunia';

export interface Template {
  slug: string;
  name: string;
  site: Site;
  family: string;
  description: string;
  tags?: string[];
  /** More paths the effect answers at (clients that know it by another name). */
  aliases?: string[];
  /** What the client sends: one text, two texts, a photo, or a photo and a text. */
  input: TemplateInput;
  canvas: { width: number; height: number };
  background: BackgroundLayer[];
  text?: TextLayer[];
  filters?: Filter[];
  /** The format a request without `format` gets. */
  format?: 'png' | 'jpg' | 'webp';
}
