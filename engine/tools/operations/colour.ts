import { colord, extend, type Colord } from 'colord';
import namesPlugin from 'colord/plugins/names';
import harmoniesPlugin from 'colord/plugins/harmonies';
import a11yPlugin from 'colord/plugins/a11y';
import cmykPlugin from 'colord/plugins/cmyk';
import mixPlugin from 'colord/plugins/mix';
import { invalidParameter } from '../../errors.js';
import type { Operation } from './types.js';

extend([namesPlugin, harmoniesPlugin, a11yPlugin, cmykPlugin, mixPlugin]);

/** Colours in any CSS notation (hex, rgb(), hsl(), names), converted and combined by colord. */

function parse(value: string, param: string): Colord {
  // bare hex without '#' is what most chat clients send
  const c = colord(/^[0-9a-f]{3,8}$/i.test(value) ? `#${value}` : value);
  if (!c.isValid()) throw invalidParameter(param, `"${value}" is not a colour`);
  return c;
}

const describe = (c: Colord) => ({
  hex: c.toHex(),
  rgb: c.toRgbString(),
  hsl: c.toHslString(),
  cmyk: c.toCmykString(),
  name: c.toName({ closest: true }),
  brightness: Number(c.brightness().toFixed(3)),
  isDark: c.isDark(),
});

export const colourConvert: Operation = ({ params }) => describe(parse(params.color, 'color'));

export const colourPalette: Operation = ({ params }) => {
  const base = parse(params.color, 'color');
  const colours = params.type === 'shades' ? base.shades(params.count) : params.type === 'tints' ? base.tints(params.count) : base.harmonies(params.type);
  return { base: base.toHex(), type: params.type, colors: colours.map((c) => c.toHex()) };
};

export const colourContrast: Operation = ({ params }) => {
  const fg = parse(params.foreground, 'foreground');
  const bg = parse(params.background, 'background');
  const ratio = fg.contrast(bg);
  return {
    ratio,
    aa: fg.isReadable(bg, { level: 'AA' }),
    aaLarge: fg.isReadable(bg, { level: 'AA', size: 'large' }),
    aaa: fg.isReadable(bg, { level: 'AAA' }),
    aaaLarge: fg.isReadable(bg, { level: 'AAA', size: 'large' }),
  };
};
