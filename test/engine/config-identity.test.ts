import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../engine/core/root.js';

/**
 * Nothing in the engine is found by the identity of a configuration object (#18 item 3):
 * what an engine derives from its configuration (the test key's principal, the success
 * envelope's head, the job settings, its pools in EngineScope) is made where the engine is
 * created and handed in. A Map or WeakMap keyed by a Config, or a lookup by `config`, fails here.
 */
const KEYED_BY_CONFIG = [/\b(?:Weak)?Map<\s*(?:Readonly<\s*)?Config\b/, /\.(?:get|set|has)\(\s*(?:[\w.]+\.)?config\s*[,)]/];

t.test('no module keys a map by the configuration object', async (t) => {
  const dir = path.join(ROOT, 'engine');
  const found: string[] = [];
  let scanned = 0;
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!rel.endsWith('.ts')) continue;
    scanned++;
    const lines = fs.readFileSync(path.join(dir, rel), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (KEYED_BY_CONFIG.some((pattern) => pattern.test(line))) found.push(`engine/${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  t.ok(scanned > 300, `the scan reads the engine (${scanned} modules)`);
  t.same(found, [], 'keyed by a configuration object');
});

/** The lookups this test replaced, as they were written (and one through deps). */
const OLD_LOOKUPS = [
  'const successPrefixes = new WeakMap<Config, string>();',
  'let parsed = settings.get(config);',
  'testPrincipals.set(config, principal);',
  'let principal = testPrincipals.get(deps.config);',
];

t.test('the patterns find what the engine used to do', async (t) => {
  t.same(
    OLD_LOOKUPS.filter((line) => !KEYED_BY_CONFIG.some((pattern) => pattern.test(line))),
    [],
    'every old lookup is found',
  );
});
