import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';
import { generatedFiles } from './generated.js';
import { brokenLinks } from './links.js';

/**
 * `npm run docs:check` (CI, .ci/run): exits 1, one `file: problem` line each, when a
 * generated reference differs from what `npm run docs:generate` would write now, or when a
 * link or repository path in README.md, docs/ or deploy/README.md leads nowhere.
 */
export async function docProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const { file, text } of await generatedFiles()) {
    const current = fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), 'utf8') : undefined;
    if (current === undefined) problems.push(`${file}: missing: run \`npm run docs:generate\` and commit it`);
    else if (current !== text) problems.push(`${file}: stale: run \`npm run docs:generate\` and commit the result`);
  }
  return [...problems, ...brokenLinks(ROOT)];
}

const problems = await docProblems();
for (const line of problems) process.stderr.write(`${line}\n`);
if (problems.length) process.exit(1);
process.stdout.write('docs: the generated references are current and every link leads to a file\n');
