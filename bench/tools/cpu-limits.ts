/**
 * The input limits of the `cost: cpu` tools: each handler run in this thread on a
 * large, realistic input, timed in CPU time (process.cpuUsage: this shared machine's
 * wall clock is noisy). The manifests' maxLength values are set so that the largest
 * accepted input takes well under a second.
 *
 *   node --import tsx bench/tools/cpu-limits.ts            # every case
 *   node --import tsx bench/tools/cpu-limits.ts wordcount  # cases whose name contains "wordcount"
 */
import { loadHandler } from '../../engine/kinds/handlers/load.js';
import { words } from '../../test/support/words.js';

const prose = 'The quick brown fox jumps over the lazy dog. Émoji 😀 and 日本語 count too! Mr. Smith e\u0301.\n\n';
const text = (n: number, unit = prose) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
/** About n characters of whole units (a valid document). */
const units = (n: number, unit: string) => unit.repeat(Math.floor(n / unit.length));
const markdown = (n: number) =>
  units(n, '# Title\n\nSome **bold** and _italic_ text with a [link](https://example.com) and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n');
const html = (n: number) =>
  units(n, '<div class="a"><h2>Title</h2><p>Hello <b>world</b> <a href="https://example.com">link</a></p><ul><li>one</li><li>two</li></ul></div>\n');
const json = (n: number) => {
  const item = JSON.stringify({ id: 1, name: 'manifold', tags: ['api', 'yaml'], nested: { a: [1, 2, 3], b: { c: 'd' } } });
  return `[${Array(Math.ceil(n / (item.length + 1)))
    .fill(item)
    .join(',')}]`;
};
let fn = 0;
const js = (n: number) =>
  Array.from(
    { length: Math.floor(n / 90) },
    () => `function add${fn++}(first, second) {\n  // sum of two\n  const total = first + second;\n  return total * 2;\n}\n`,
  ).join('');
const css = (n: number) => units(n, '.card { color: #ff0000; margin: 0px 0px 0px 0px; padding: 4px; }\n.card:hover { color: blue }\n');

const CASES: [string, string, Record<string, unknown>, Record<string, unknown>?][] = [
  ['wordcount 200 KB', 'tools/wordcount', { text: text(200_000) }],
  ['reverse 8 KB', 'tools/reverse', { text: text(8000) }],
  ['diff 2 x 24 KB, different', 'tools/diff', { a: words(4000, 1), b: words(4000, 2), mode: 'words' }],
  ['diff 2 x 100 KB, a few edits', 'tools/diff', { a: text(100_000), b: text(100_000).replace(/fox/g, (m, i: number) => (i % 7 ? m : 'cat')), mode: 'words' }],
  [
    'regex 100 KB text',
    'tools/regex',
    { pattern: '(\\w+)@(\\w+)\\.com', flags: '', text: text(100_000, 'mail a@b.com or c@d.com now '), limit: 1000 },
    { timeoutMs: 1000 },
  ],
  ['markdown 200 KB', 'tools/markdown', { markdown: markdown(200_000) }],
  ['html2text 1 MB', 'tools/html2text', { html: html(1_000_000), wordwrap: 0 }],
  ['sanitizehtml 500 KB', 'tools/sanitizehtml', { html: html(500_000) }],
  ['jsonformat 500 KB', 'tools/json-format', { json: json(500_000), indent: 2 }],
  ['json2yaml 500 KB', 'tools/json-convert#toYaml', { json: json(500_000) }],
  ['yaml2json 500 KB', 'tools/yaml2json', { yaml: units(500_000, '- id: 1\n  name: manifold\n  tags: [api, yaml]\n  nested: { a: [1, 2, 3] }\n') }],
  ['minifyjs 200 KB', 'tools/minify#js', { code: js(200_000) }],
  ['minifycss 500 KB', 'tools/minify#css', { code: css(500_000) }],
  ['minifyhtml 500 KB', 'tools/minify#html', { code: html(500_000) }],
  ['beautifyjs 500 KB', 'tools/beautify', { code: js(500_000), indent: 2 }, { language: 'js' }],
  ['beautifycss 500 KB', 'tools/beautify', { code: css(500_000), indent: 2 }, { language: 'css' }],
  ['beautifyhtml 500 KB', 'tools/beautify', { code: html(500_000), indent: 2 }, { language: 'html' }],
];

const only = process.argv[2];
for (const [name, handler, params, options = {}] of CASES) {
  if (only && !name.includes(only)) continue;
  const run = await loadHandler(handler);
  await (async () => run({ params, options } as never))().catch(() => {}); // warm (JIT, lazy library parts)
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const before = process.cpuUsage();
    try {
      await run({ params, options } as never);
    } catch (err) {
      console.log(`${name}: ${(err as Error).message}`);
    }
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  console.log(`${name.padEnd(32)} ${best.toFixed(0).padStart(6)} ms CPU`);
}
