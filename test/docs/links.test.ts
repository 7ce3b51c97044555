import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { anchors, brokenLinks } from '../../scripts/docs/links.js';

/**
 * The docs check's link half (scripts/docs/links.ts, run by `npm run docs:check` in CI) on a
 * small checkout of its own: what leads somewhere passes, and each way of leading nowhere is
 * named with its page and line.
 */
function checkout(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-docs-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  // what git ignores counts as generated: the check asks git, as in a clone
  execFileSync('git', ['init', '-q', root]);
  return root;
}

t.test('links, anchors and paths that exist pass', async (t) => {
  const root = checkout({
    'README.md': '# Manifold\n\nSee [the contract](docs/using/contract.md#the-envelope) and [the index](docs/README.md).\n',
    'docs/README.md': '# Docs\n\n[Back](../README.md#manifold), [settings](operating/settings.md), [elsewhere](https://example.com/x.md).\n',
    'docs/using/contract.md':
      '# The contract\n\n## The envelope\n\nThe code is in `engine/core/errors.ts` and `test/engine/`; `<category>/x.yaml` is a pattern;\n' +
      '`clients/typescript/schema.d.ts` is generated (git ignores it).\n',
    '.gitignore': 'clients/typescript/schema.d.ts\n',
    'docs/operating/settings.md': '# Settings\n',
    'engine/core/errors.ts': '',
    'test/engine/contract.test.ts': '',
  });
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  t.same(brokenLinks(root), []);
});

t.test('a missing file, a missing heading and a missing repository path are each named', async (t) => {
  const root = checkout({
    'README.md': '# Manifold\n\nRead [the contract](docs/using/contract.md#no-such-section).\n\nAnd [the gone page](docs/gone.md).\n',
    'docs/using/contract.md': '# The contract\n\n| what | where |\n|---|---|\n| errors | `engine/core/moved.ts` |\n',
  });
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const problems = brokenLinks(root);
  t.match(problems, [
    /^README\.md:3: docs\/using\/contract\.md#no-such-section: docs\/using\/contract\.md has no heading with the anchor #no-such-section$/,
    /^README\.md:5: docs\/gone\.md: no such file/,
    /^docs\/using\/contract\.md:\d+: engine\/core\/moved\.ts: no such path/,
  ]);
  t.equal(problems.length, 3);
});

t.test("GitHub's anchors: punctuation dropped, code marks ignored, repeated headings numbered", async (t) => {
  const found = anchors('# Keys and usage\n\n## A key’s own rules\n\n## `GET /health`\n\n## Notes\n\n## Notes\n');
  t.same([...found].sort(), ['a-keys-own-rules', 'get-health', 'keys-and-usage', 'notes', 'notes-1']);
});
