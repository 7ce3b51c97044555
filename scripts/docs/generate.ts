import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';
import { generatedFiles } from './generated.js';

/**
 * `npm run docs:generate`: writes every reference generated from the code (the settings
 * reference and .env.example, the built-in routes, the error codes). Run it after changing
 * what they are made from; `npm run docs:check` (CI) fails while one is stale.
 */
for (const { file, text } of await generatedFiles()) {
  fs.mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
  fs.writeFileSync(path.join(ROOT, file), text);
  process.stdout.write(`wrote ${file}\n`);
}
