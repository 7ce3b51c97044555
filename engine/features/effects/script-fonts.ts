import path from 'node:path';

/**
 * Text in every script. A display font (Luckiest Guy, Anton…) draws Latin only; Skia
 * (@napi-rs/canvas, shaping with HarfBuzz) tries the families of a CSS font list glyph
 * cluster by glyph cluster, so every text drawn here names the display font first and then
 * this chain: Noto Sans and Noto per script (Debian's fonts-noto-core), colour emoji
 * (fonts-noto-color-emoji), Chinese, Japanese and Korean (fonts-noto-cjk), then DejaVu from
 * npm, always present, as the last resort.
 *
 * Order matters where fonts overlap. The emoji font also maps digits, '#', '*' and the
 * space (keycap bases, drawn as wide grey glyphs), so it comes after the display font and
 * Noto Sans, which have those; the CJK font and DejaVu draw some emoji in monochrome
 * (⚽, 🆎; 😂, ☕), so they come after it. test/effects/every-script.test.ts checks every
 * emoji code point against the chain. Families Skia does not know are skipped: a host
 * without Noto draws as before (DejaVu, boxes for what it lacks), and boot says which
 * scripts fall back.
 */
export interface ScriptFont {
  family: string;
  /** What it draws, as the boot log names it. */
  scripts: string;
  /** The Debian package that installs it. */
  deb: string;
  /** A letter it draws, to tell whether Skia has it. */
  sample: string;
}

const core = (family: string, scripts: string, sample: string): ScriptFont => ({ family, scripts, deb: 'fonts-noto-core', sample });

export const SCRIPT_FONTS: readonly ScriptFont[] = [
  // Latin with every diacritic (Vietnamese too), Greek and Cyrillic; no emoji in it
  core('Noto Sans', 'Latin with diacritics, Greek, Cyrillic', 'Ệ'),
  core('Noto Sans Arabic', 'Arabic, Persian, Urdu', 'ب'),
  core('Noto Sans Hebrew', 'Hebrew', 'ש'),
  core('Noto Sans Devanagari', 'Devanagari (Hindi, Marathi, Nepali)', 'न'),
  core('Noto Sans Bengali', 'Bengali', 'ক'),
  core('Noto Sans Gurmukhi', 'Gurmukhi', 'ਗ'),
  core('Noto Sans Gujarati', 'Gujarati', 'ગ'),
  core('Noto Sans Tamil', 'Tamil', 'த'),
  core('Noto Sans Telugu', 'Telugu', 'త'),
  core('Noto Sans Kannada', 'Kannada', 'ಕ'),
  core('Noto Sans Malayalam', 'Malayalam', 'മ'),
  core('Noto Sans Sinhala', 'Sinhala', 'ක'),
  core('Noto Sans Thai', 'Thai', 'ก'),
  core('Noto Sans Lao', 'Lao', 'ກ'),
  core('Noto Sans Khmer', 'Khmer', 'ក'),
  core('Noto Sans Myanmar', 'Myanmar', 'က'),
  core('Noto Sans Georgian', 'Georgian', 'ა'),
  core('Noto Sans Armenian', 'Armenian', 'Ա'),
  core('Noto Sans Ethiopic', 'Ethiopic', 'አ'),
  { family: 'Noto Color Emoji', scripts: 'colour emoji', deb: 'fonts-noto-color-emoji', sample: '😂' },
  // the Simplified Chinese face of the collection; it has kana and Hangul too, and also
  // monochrome ⚽, ⚾, 🆎, 🈁… (emoji by default), hence after the emoji
  { family: 'Noto Sans CJK SC', scripts: 'Chinese, Japanese, Korean', deb: 'fonts-noto-cjk', sample: '你' },
];

/** Bundled with the npm package dejavu-fonts-ttf (registered by fonts.ts and the sticker drawing). */
export const LAST_RESORT = 'DejaVu Sans';

/** The CSS family list that follows a display font: `"Noto Sans", …, "DejaVu Sans"`. */
export const FALLBACK_FAMILIES = [...SCRIPT_FONTS.map((f) => f.family), LAST_RESORT].map((family) => `"${family}"`).join(', ');

/** Debian's packages for the whole chain, as docs/operating/local-engines.md and the boot log name them. */
export const FONT_PACKAGES = [...new Set(SCRIPT_FONTS.map((f) => f.deb))];

/**
 * FONT_DIRS: more directories of font files, separated like PATH (Skia reads only
 * /usr/share/fonts on Linux), for a host that cannot install system packages. Default none.
 */
export function fontDirs(env: Readonly<Record<string, string>>): string[] {
  return (env.FONT_DIRS ?? '').split(path.delimiter).filter(Boolean);
}

type Canvas = typeof import('@napi-rs/canvas');
const UNKNOWN_FAMILY = 'No Such Family (Manifold)';

/**
 * Whether Skia draws `sample` with this family: GlobalFonts.has knows only the first face
 * of a font collection (NotoSansCJK-Regular.ttc lists as "Noto Sans CJK JP" alone though
 * Skia matches its SC face), so ask the renderer. A family Skia does not know draws like
 * an unknown one.
 */
function draws(canvas: Canvas, family: string, sample: string): boolean {
  const tile = (css: string) => {
    const c = canvas.createCanvas(48, 48);
    const g = c.getContext('2d');
    g.font = css;
    g.fillText(sample, 4, 40);
    return Buffer.from(c.data());
  };
  return !tile(`32px "${family}"`).equals(tile(`32px "${UNKNOWN_FAMILY}"`));
}

/** What this host lacks of the chain: the scripts that will fall back, and the packages that bring their fonts. */
export function missingScriptFonts(canvas: Canvas, fonts = SCRIPT_FONTS): { scripts: string[]; install: string[] } {
  const missing = fonts.filter((f) => !draws(canvas, f.family, f.sample));
  return { scripts: [...new Set(missing.map((f) => f.scripts))], install: [...new Set(missing.map((f) => f.deb))] };
}

/**
 * Once at boot (after the server listens; Skia loads here, not on the way to it): loads
 * FONT_DIRS into Skia's registry, which is the process's, so the render workers see them
 * too, and says which scripts will fall back. Never throws: a host without fonts still serves.
 */
export async function checkScriptFonts(
  env: Readonly<Record<string, string>>,
  log: (fields: Record<string, unknown>) => void,
  fonts = SCRIPT_FONTS,
): Promise<void> {
  // the listening line first: Skia's load and its scan of the system fonts take ~0.3 s
  await new Promise((resolve) => setImmediate(resolve));
  let canvas: Canvas;
  try {
    canvas = await import('@napi-rs/canvas');
  } catch (err) {
    log({ msg: 'fonts: the canvas library did not load; stickers and text effects will fail', err: (err as Error).message });
    return;
  }
  const dirs = fontDirs(env);
  const loaded = dirs.map((dir) => ({ dir, fonts: canvas.GlobalFonts.loadFontsFromDir(dir) }));
  const { scripts, install } = missingScriptFonts(canvas, fonts);
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
