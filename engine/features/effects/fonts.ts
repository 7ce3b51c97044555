import { createRequire } from 'node:module';
import type { GlobalFonts as Fonts } from '@napi-rs/canvas';
import { FALLBACK_FAMILIES } from './script-fonts.js';

/**
 * Fonts templates may name, each a TTF shipped in an npm package (licences in
 * templates/FONTS.md). Ids are what template files use; the family is the name
 * registered with Skia. What a display font lacks (accents, Cyrillic, every other
 * script, emoji) is drawn by the fallback chain of script-fonts.ts.
 */
const require = createRequire(import.meta.url);
const google = (pkg: string, file: string) => `@expo-google-fonts/${pkg}/${file}`;

export const FONTS: Record<string, { family: string; file: string; licence: 'OFL-1.1' | 'Apache-2.0' | 'Bitstream-Vera' }> = {
  'abril-fatface': { family: 'Abril Fatface', file: google('abril-fatface', '400Regular/AbrilFatface_400Regular.ttf'), licence: 'OFL-1.1' },
  anton: { family: 'Anton', file: google('anton', '400Regular/Anton_400Regular.ttf'), licence: 'OFL-1.1' },
  audiowide: { family: 'Audiowide', file: google('audiowide', '400Regular/Audiowide_400Regular.ttf'), licence: 'OFL-1.1' },
  bangers: { family: 'Bangers', file: google('bangers', '400Regular/Bangers_400Regular.ttf'), licence: 'OFL-1.1' },
  'bebas-neue': { family: 'Bebas Neue', file: google('bebas-neue', '400Regular/BebasNeue_400Regular.ttf'), licence: 'OFL-1.1' },
  bungee: { family: 'Bungee', file: google('bungee', '400Regular/Bungee_400Regular.ttf'), licence: 'OFL-1.1' },
  caveat: { family: 'Caveat', file: google('caveat', '700Bold/Caveat_700Bold.ttf'), licence: 'OFL-1.1' },
  chewy: { family: 'Chewy', file: google('chewy', '400Regular/Chewy_400Regular.ttf'), licence: 'Apache-2.0' },
  cinzel: { family: 'Cinzel', file: google('cinzel', '900Black/Cinzel_900Black.ttf'), licence: 'OFL-1.1' },
  creepster: { family: 'Creepster', file: google('creepster', '400Regular/Creepster_400Regular.ttf'), licence: 'OFL-1.1' },
  fredoka: { family: 'Fredoka', file: google('fredoka', '700Bold/Fredoka_700Bold.ttf'), licence: 'OFL-1.1' },
  'great-vibes': { family: 'Great Vibes', file: google('great-vibes', '400Regular/GreatVibes_400Regular.ttf'), licence: 'OFL-1.1' },
  lobster: { family: 'Lobster', file: google('lobster', '400Regular/Lobster_400Regular.ttf'), licence: 'OFL-1.1' },
  'luckiest-guy': { family: 'Luckiest Guy', file: google('luckiest-guy', '400Regular/LuckiestGuy_400Regular.ttf'), licence: 'Apache-2.0' },
  monoton: { family: 'Monoton', file: google('monoton', '400Regular/Monoton_400Regular.ttf'), licence: 'OFL-1.1' },
  orbitron: { family: 'Orbitron', file: google('orbitron', '900Black/Orbitron_900Black.ttf'), licence: 'OFL-1.1' },
  pacifico: { family: 'Pacifico', file: google('pacifico', '400Regular/Pacifico_400Regular.ttf'), licence: 'OFL-1.1' },
  'permanent-marker': { family: 'Permanent Marker', file: google('permanent-marker', '400Regular/PermanentMarker_400Regular.ttf'), licence: 'Apache-2.0' },
  'playfair-display': {
    family: 'Playfair Display',
    file: google('playfair-display', '900Black_Italic/PlayfairDisplay_900Black_Italic.ttf'),
    licence: 'OFL-1.1',
  },
  'press-start-2p': { family: 'Press Start 2P', file: google('press-start-2p', '400Regular/PressStart2P_400Regular.ttf'), licence: 'OFL-1.1' },
  righteous: { family: 'Righteous', file: google('righteous', '400Regular/Righteous_400Regular.ttf'), licence: 'OFL-1.1' },
  'rubik-mono-one': { family: 'Rubik Mono One', file: google('rubik-mono-one', '400Regular/RubikMonoOne_400Regular.ttf'), licence: 'OFL-1.1' },
  'russo-one': { family: 'Russo One', file: google('russo-one', '400Regular/RussoOne_400Regular.ttf'), licence: 'OFL-1.1' },
  rye: { family: 'Rye', file: google('rye', '400Regular/Rye_400Regular.ttf'), licence: 'OFL-1.1' },
  sacramento: { family: 'Sacramento', file: google('sacramento', '400Regular/Sacramento_400Regular.ttf'), licence: 'OFL-1.1' },
  satisfy: { family: 'Satisfy', file: google('satisfy', '400Regular/Satisfy_400Regular.ttf'), licence: 'Apache-2.0' },
  'special-elite': { family: 'Special Elite', file: google('special-elite', '400Regular/SpecialElite_400Regular.ttf'), licence: 'Apache-2.0' },
  vt323: { family: 'VT323', file: google('vt323', '400Regular/VT323_400Regular.ttf'), licence: 'OFL-1.1' },
  'dejavu-sans': { family: 'DejaVu Sans', file: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', licence: 'Bitstream-Vera' },
  'dejavu-serif': { family: 'DejaVu Serif', file: 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf', licence: 'Bitstream-Vera' },
  'dejavu-mono': { family: 'DejaVu Sans Mono', file: 'dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf', licence: 'Bitstream-Vera' },
};

let registered = false;

/** Registers every font with Skia once per thread (workers each have their own registry). */
export function registerFonts(): void {
  if (registered) return;
  // Skia loads with the first render, not with the font table (which boot reads)
  const { GlobalFonts } = require('@napi-rs/canvas') as { GlobalFonts: typeof Fonts };
  for (const { family, file } of Object.values(FONTS)) {
    if (!GlobalFonts.registerFromPath(require.resolve(file), family)) throw new Error(`font ${file} failed to load`);
  }
  registered = true;
}

/** CSS font shorthand for a font id at a pixel size, followed by the fallback chain. */
export function fontCss(id: string, px: number): string {
  const font = FONTS[id];
  if (!font) throw new Error(`unknown font ${id}`);
  return `${px.toFixed(2)}px "${font.family}", ${FALLBACK_FAMILIES}`;
}
