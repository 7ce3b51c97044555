import t from 'tap';
import { loadHandler } from '../../engine/kinds/handlers/load.js';

/**
 * Deeply nested documents overflow the recursive parsers and printers; that is the
 * client's input, so it answers 400 naming the parameter (it was a 500). Run here on
 * the main thread's stack; in the code pool the worker's stack is 4 MB, and any
 * overflow a handler does not name becomes 422 too_complex (workers/task.ts).
 */
const nestedJson = '['.repeat(200_000) + ']'.repeat(200_000);
const CASES: [string, Record<string, unknown>, string, Record<string, unknown>?][] = [
  ['tools/json-format', { json: nestedJson, indent: 2 }, 'json'],
  ['tools/json-convert#minify', { json: nestedJson }, 'json'],
  ['tools/json-convert#toYaml', { json: nestedJson }, 'json'],
  ['tools/yaml2json', { yaml: '['.repeat(20_000) + ']'.repeat(20_000) }, 'yaml'],
  ['tools/markdown', { markdown: '> '.repeat(20_000) + 'deep' }, 'markdown'],
  ['tools/html2text', { html: '<div>'.repeat(20_000) + 'deep', wordwrap: 0 }, 'html'],
  // its output grew with depth x lines (20,000 brackets: 400 MB): refused before it starts
  ['tools/beautify', { code: '['.repeat(20_000), indent: 2 }, 'code', { language: 'js' }],
];

for (const [name, params, param, options = {}] of CASES) {
  t.test(`${name}: deep nesting is a 400 naming ${param}`, async (t) => {
    const run = await loadHandler(name);
    await t.rejects((async () => run({ params, options } as never))(), { status: 400, code: 'invalid_parameter', details: [{ param }] });
  });
}
