import t from 'tap';
import sharp from 'sharp';
import { renderCarbon } from '../../engine/features/tools/carbon/render.js';
import { detectLanguage } from '../../engine/features/tools/carbon/detect-language.js';

/** Distinct opaque colours in an image (to see that tokens got their theme colours). */
async function colours(png: Buffer): Promise<Set<string>> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const seen = new Set<string>();
  for (let i = 0; i < data.length; i += info.channels) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
  return seen;
}

const options = { theme: 'github-dark', background: '#ffffff', padding: 0, windowControls: false, lineNumbers: false, fontSize: 16 };

t.test('tokens are painted in the theme colours', async (t) => {
  // github-dark: keywords #F97583 (249,117,131), strings #9ECBFF (158,203,255)
  const { png, language } = await renderCarbon({ ...options, code: 'var s = "text";', language: 'javascript' });
  t.equal(language, 'javascript');
  const seen = await colours(png);
  t.ok(seen.has('249,117,131'), 'keyword colour present');
  t.ok(seen.has('158,203,255'), 'string colour present');
  const plain = await colours((await renderCarbon({ ...options, code: 'var s = "text";', language: 'text' })).png);
  t.notOk(plain.has('249,117,131'), 'no keyword colour without highlighting');
});

t.test('size follows lines, padding and options', async (t) => {
  const one = await sharp((await renderCarbon({ ...options, code: 'a', language: 'text' })).png).metadata();
  const three = await sharp((await renderCarbon({ ...options, code: 'a\nb\nc', language: 'text' })).png).metadata();
  t.equal(three.height! - one.height!, 2 * 24, 'two more lines of 1.5 × 16 px');
  const padded = await sharp((await renderCarbon({ ...options, code: 'a', language: 'text', padding: 40, windowControls: true })).png).metadata();
  t.equal(padded.width! - one.width!, 80);
  t.equal(padded.height! - one.height!, 80 + 40, 'padding plus the title bar');
});

t.test('language detection', async (t) => {
  t.equal(detectLanguage('def add(a, b):\n    return a + b\n\nprint(add(1, 2))'), 'python');
  t.equal(detectLanguage('fn main() {\n    let x: i32 = 5;\n    println!("{}", x);\n}'), 'rust');
  t.equal(detectLanguage('package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}'), 'go');
  t.equal(detectLanguage('hello'), 'text', 'prose stays plain text');
});
