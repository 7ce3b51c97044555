import path from 'node:path';
import type { GlobalFonts as Fonts } from '@napi-rs/canvas';

/**
 * Text in every script. A display font (Luckiest Guy, Anton…) draws Latin only; Skia
 * (@napi-rs/canvas, shaping with HarfBuzz) tries the families of a CSS font list glyph
 * cluster by glyph cluster, so every text drawn here names the display font first and
 * then this chain: Noto per script (Debian's fonts-noto-core and fonts-noto-cjk), colour
 * emoji (fonts-noto-color-emoji), then DejaVu from npm, always present, as the last resort.
 *
 * Order matters where fonts overlap. The emoji font also maps digits, '#', '*' and the
 * space (keycap bases, drawn as wide grey glyphs), so it comes after the text fonts,
 * which all have those; DejaVu draws some emoji in monochrome (😂, ☕…), so it comes after
 * the emoji font. Families Skia does not know are skipped: a host without Noto draws as
 * before (DejaVu, boxes for what it lacks) and boot says which scripts fall back.
 */
export interface ScriptFont {
  family: string;
  /** What it draws, as the boot log names it. */
  scripts: string;
  /** The Debian package that installs it. */
  deb: string;
}

const core = (family: string, scripts: string): ScriptFont => ({ family, scripts, deb: 'fonts-noto-core' });

export const SCRIPT_FONTS: readonly ScriptFont[] = [
  // Latin with every diacritic (Vietnamese too), Greek and Cyrillic; no emoji in it
  core('Noto Sans', 'Latin with diacritics, Greek, Cyrillic'),
  core('Noto Sans Arabic', 'Arabic, Persian, Urdu'),
  core('Noto Sans Hebrew', 'Hebrew'),
  core('Noto Sans Devanagari', 'Devanagari (Hindi, Marathi, Nepali)'),
  core('Noto Sans Bengali', 'Bengali'),
  core('Noto Sans Gurmukhi', 'Gurmukhi'),
  core('Noto Sans Gujarati', 'Gujarati'),
  core('Noto Sans Tamil', 'Tamil'),
  core('Noto Sans Telugu', 'Telugu'),
  core('Noto Sans Kannada', 'Kannada'),
  core('Noto Sans Malayalam', 'Malayalam'),
  core('Noto Sans Sinhala', 'Sinhala'),
  core('Noto Sans Thai', 'Thai'),
  core('Noto Sans Lao', 'Lao'),
  core('Noto Sans Khmer', 'Khmer'),
  core('Noto Sans Myanmar', 'Myanmar'),
  core('Noto Sans Georgian', 'Georgian'),
  core('Noto Sans Armenian', 'Armenian'),
  core('Noto Sans Ethiopic', 'Ethiopic'),
  // the Simplified Chinese face of the collection; it has kana and Hangul too
  { family: 'Noto Sans CJK SC', scripts: 'Chinese, Japanese, Korean', deb: 'fonts-noto-cjk' },
  { family: 'Noto Color Emoji', scripts: 'colour emoji', deb: 'fonts-noto-color-emoji' },
  core('Noto Sans Symbols', 'symbols'),
  core('Noto Sans Symbols2', 'symbols'),
];

/** Bundled with the npm package dejavu-fonts-ttf (registered by fonts.ts and the sticker drawing). */
export const LAST_RESORT = 'DejaVu Sans';

/** The CSS family list that follows a display font: `"Noto Sans", …, "DejaVu Sans"`. */
export const FALLBACK_FAMILIES = [...SCRIPT_FONTS.map((f) => f.family), LAST_RESORT].map((family) => `"${family}"`).join(', ');

/** Debian's packages for the whole chain, as the README and the boot log name them. */
export const FONT_PACKAGES = [...new Set(SCRIPT_FONTS.map((f) => f.deb))];

/**
 * FONT_DIRS: more directories of font files, separated like PATH (Skia reads only
 * /usr/share/fonts on Linux), for a host that cannot install system packages. Default none.
 */
export function fontDirs(env: Readonly<Record<string, string>>): string[] {
  return (env.FONT_DIRS ?? '').split(path.delimiter).filter(Boolean);
}

/** What a host lacks of the chain: the fonts Skia does not know, with the packages that bring them. */
export function missingScriptFonts(has: (family: string) => boolean): { scripts: string[]; install: string[] } {
  const missing = SCRIPT_FONTS.filter((f) => !has(f.family));
  return { scripts: [...new Set(missing.map((f) => f.scripts))], install: [...new Set(missing.map((f) => f.deb))] };
}

/**
 * Once at boot (after the server listens; Skia loads here, not on the way to it): loads
 * FONT_DIRS into Skia's registry, which is the process's, so the render workers see them
 * too, and says which scripts will fall back. Never throws: a host without fonts still serves.
 */
export async function checkScriptFonts(env: Readonly<Record<string, string>>, log: (fields: Record<string, unknown>) => void): Promise<void> {
  // the listening line first: Skia's load and its scan of the system fonts take ~0.3 s
  await new Promise((resolve) => setImmediate(resolve));
  let GlobalFonts: typeof Fonts;
  try {
    ({ GlobalFonts } = await import('@napi-rs/canvas'));
  } catch (err) {
    log({ msg: 'fonts: the canvas library did not load; stickers and text effects will fail', err: (err as Error).message });
    return;
  }
  const dirs = fontDirs(env);
  const loaded = dirs.map((dir) => ({ dir, fonts: GlobalFonts.loadFontsFromDir(dir) }));
  const { scripts, install } = missingScriptFonts((family) => GlobalFonts.has(family));
  if (!scripts.length) {
    log({ msg: 'fonts: every script of the fallback chain is installed', ...(dirs.length ? { fontDirs: loaded } : {}) });
    return;
  }
  log({
    msg: 'fonts: some scripts will draw as empty boxes or in monochrome in stickers, cards and text effects',
    missing: scripts,
    fix: `apt-get install ${install.join(' ')} (or put the font files in a directory named by FONT_DIRS)`,
    ...(dirs.length ? { fontDirs: loaded } : {}),
  });
}
