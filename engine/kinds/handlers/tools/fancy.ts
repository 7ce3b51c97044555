import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * "Fancy" Unicode text styles (what chat bots call fancy fonts): the Mathematical
 * Alphanumeric Symbols block plus circled and full-width forms. Each style is the
 * code point of its 'A', 'a' and '0' (when the style has digits) and the letters
 * Unicode encoded earlier in Letterlike Symbols (the "holes" of the block).
 */
interface Style {
  name: string;
  upper: number;
  lower: number;
  digit?: number;
  holes?: Record<string, number>;
}

const STYLES: Style[] = [
  { name: 'bold', upper: 0x1d400, lower: 0x1d41a, digit: 0x1d7ce },
  { name: 'italic', upper: 0x1d434, lower: 0x1d44e, holes: { h: 0x210e } },
  { name: 'bold-italic', upper: 0x1d468, lower: 0x1d482 },
  {
    name: 'script',
    upper: 0x1d49c,
    lower: 0x1d4b6,
    holes: { B: 0x212c, E: 0x2130, F: 0x2131, H: 0x210b, I: 0x2110, L: 0x2112, M: 0x2133, R: 0x211b, e: 0x212f, g: 0x210a, o: 0x2134 },
  },
  { name: 'bold-script', upper: 0x1d4d0, lower: 0x1d4ea },
  { name: 'fraktur', upper: 0x1d504, lower: 0x1d51e, holes: { C: 0x212d, H: 0x210c, I: 0x2111, R: 0x211c, Z: 0x2128 } },
  { name: 'bold-fraktur', upper: 0x1d56c, lower: 0x1d586 },
  {
    name: 'double-struck',
    upper: 0x1d538,
    lower: 0x1d552,
    digit: 0x1d7d8,
    holes: { C: 0x2102, H: 0x210d, N: 0x2115, P: 0x2119, Q: 0x211a, R: 0x211d, Z: 0x2124 },
  },
  { name: 'sans', upper: 0x1d5a0, lower: 0x1d5ba, digit: 0x1d7e2 },
  { name: 'sans-bold', upper: 0x1d5d4, lower: 0x1d5ee, digit: 0x1d7ec },
  { name: 'sans-italic', upper: 0x1d608, lower: 0x1d622 },
  { name: 'sans-bold-italic', upper: 0x1d63c, lower: 0x1d656 },
  { name: 'monospace', upper: 0x1d670, lower: 0x1d68a, digit: 0x1d7f6 },
  { name: 'circled', upper: 0x24b6, lower: 0x24d0 },
  { name: 'fullwidth', upper: 0xff21, lower: 0xff41, digit: 0xff10 },
];

function render(style: Style, text: string): string {
  let out = '';
  for (const ch of text) {
    const hole = style.holes?.[ch];
    if (hole) out += String.fromCodePoint(hole);
    else if (ch >= 'A' && ch <= 'Z') out += String.fromCodePoint(style.upper + ch.charCodeAt(0) - 65);
    else if (ch >= 'a' && ch <= 'z') out += String.fromCodePoint(style.lower + ch.charCodeAt(0) - 97);
    else if (ch >= '0' && ch <= '9' && style.digit) out += String.fromCodePoint(style.digit + ch.charCodeAt(0) - 48);
    else out += ch;
  }
  return out;
}

export const FANCY_STYLES = STYLES.map((s) => s.name);

/** Every style as `[{name, result}]`, or with `style` one string (1-based number or name). */
export default handler<Params['tools/fancy']>(({ params }) => {
  if (params.style === undefined) return STYLES.map((style) => ({ name: style.name, result: render(style, params.text) }));
  const wanted = String(params.style);
  const style = /^\d+$/.test(wanted) ? STYLES[Number(wanted) - 1] : STYLES.find((s) => s.name === wanted);
  if (!style) throw invalidParameter('style', `must be 1-${STYLES.length} or one of: ${FANCY_STYLES.join(', ')}`);
  return render(style, params.text);
});
