import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import sharp from 'sharp';
import { installedLanguages, recognize, tesseractCode } from '../../engine/features/ocr/tesseract.js';
import { EngineScope } from '../../engine/platform/scope.js';

const note = fs.readFileSync(path.resolve(import.meta.dirname, '../../endpoints/tools/fixtures/ocr-note.jpg'));
const scope = new EngineScope();
t.teardown(() => scope.close());

t.test('languages: English ships; two-letter codes map to Tesseract codes', async (t) => {
  t.ok(installedLanguages().includes('eng'));
  t.notOk(installedLanguages().includes('osd'), 'the orientation model is not a language');
  t.equal(tesseractCode('en'), 'eng');
  t.equal(tesseractCode('zh'), 'chi_sim');
  t.equal(tesseractCode('eng'), 'eng');
});

t.test('reads a note, line by line, on a warm worker; a closed worker is started again', async (t) => {
  const first = await recognize(note, 'eng', new AbortController().signal, scope);
  t.equal(first.text, 'Manifold OCR fixture\nThe quick brown fox jumps over 13 lazy dogs.');
  t.same(
    first.lines.map((l) => l.text),
    ['Manifold OCR fixture', 'The quick brown fox jumps over 13 lazy dogs.'],
  );
  // white text on black, made here: a second, different page on the same worker
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="520" height="120"><rect width="100%" height="100%" fill="#000"/><text x="20" y="75" font-family="DejaVu Sans" font-size="40" fill="#fff">Warm worker 2</text></svg>';
  const second = await recognize(await sharp(Buffer.from(svg)).png().toBuffer(), 'eng', new AbortController().signal, scope);
  t.equal(second.text, 'Warm worker 2');
  await scope.close();
  const again = await recognize(note, 'eng', new AbortController().signal, scope);
  t.match(again.text, /^Manifold OCR fixture/);
});

t.test('an aborted call stops waiting with the abort reason', async (t) => {
  const controller = new AbortController();
  const reason = new Error('client left');
  const pending = recognize(note, 'eng', controller.signal, scope);
  controller.abort(reason);
  await t.rejects(pending, reason);
});

t.test('an uninstalled language is refused', async (t) => {
  await t.rejects(recognize(note, 'xho', new AbortController().signal, scope), /no tesseract.js data package/);
});
