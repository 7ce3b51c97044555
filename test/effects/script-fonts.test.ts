import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import t from 'tap';
import { checkScriptFonts, SCRIPT_FONTS, type ScriptFont } from '../../engine/features/effects/script-fonts.js';

/** The boot check of engine/features/effects/script-fonts.ts: one line, which scripts fall back and how to fix it, never a crash. */

const logged = async (env: Record<string, string>, fonts?: readonly ScriptFont[]) => {
  const lines: Record<string, unknown>[] = [];
  await checkScriptFonts(env, (fields) => lines.push(fields), fonts);
  return lines;
};

t.test('with the Noto fonts installed (as .ci/run does): one line saying so', async (t) => {
  t.match(await logged({}), [{ msg: /every script of the fallback chain is installed/ }]);
});

t.test('a font Skia lacks: one line naming its scripts and the package that brings it', async (t) => {
  const absent: ScriptFont = { family: 'Noto Sans Nowhere', scripts: 'Klingon', deb: 'fonts-noto-nowhere', sample: 'ᚠ' };
  const lines = await logged({}, [...SCRIPT_FONTS, absent]);
  t.equal(lines.length, 1);
  t.same(lines[0].missing, ['Klingon']);
  t.match(lines[0].fix, /^apt-get install fonts-noto-nowhere /);
});

t.test('FONT_DIRS: each directory is loaded into Skia, and the log says how many fonts it held', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-fonts-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.copyFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'), path.join(dir, 'a.ttf'));
  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty);
  t.match(await logged({ FONT_DIRS: [dir, empty].join(path.delimiter) }), [
    {
      fontDirs: [
        { dir, fonts: 1 },
        { dir: empty, fonts: 0 },
      ],
    },
  ]);
});
