import { colord, extend, type Colord } from 'colord';
import namesPlugin from 'colord/plugins/names';
import harmoniesPlugin from 'colord/plugins/harmonies';
import a11yPlugin from 'colord/plugins/a11y';
import cmykPlugin from 'colord/plugins/cmyk';
import mixPlugin from 'colord/plugins/mix';
import { invalidParameter } from '../../core/errors.js';

extend([namesPlugin, harmoniesPlugin, a11yPlugin, cmykPlugin, mixPlugin]);

/** Colours in any CSS notation (hex, rgb(), hsl(), names), converted and combined by colord. */

export function parse(value: string, param: string): Colord {
  // bare hex without '#' is what most chat clients send
  const c = colord(/^[0-9a-f]{3,8}$/i.test(value) ? `#${value}` : value);
  if (!c.isValid()) throw invalidParameter(param, `"${value}" is not a colour`);
  return c;
}
