import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../engine/core/root.js';
import { SCHEMA_TYPES, schemaTypes } from '../../scripts/schema-types.js';

/**
 * The schemas' TypeScript types (scripts/schema-types.ts) are what `npm run build` writes
 * from the schemas as they are now: a schema edited without a build fails here, and code
 * that no longer fits a regenerated type fails the typecheck CI runs after its build.
 */

for (const entry of SCHEMA_TYPES) {
  t.test(`${entry.out} is current with ${entry.schema}`, async (t) => {
    const file = path.join(ROOT, entry.out);
    t.ok(fs.existsSync(file), `${entry.out} exists: run npm run build`);
    const expected = await schemaTypes(entry);
    t.equal(fs.readFileSync(file, 'utf8'), expected, `${entry.out} is stale: run npm run build`);
    // every property the schema declares at its top is in the generated interface
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, entry.schema), 'utf8'));
    t.match(expected, new RegExp(`export interface ${entry.name} \\{`));
    for (const name of Object.keys(schema.properties as Record<string, unknown>)) {
      const optional = !(schema.required ?? []).includes(name);
      t.ok(expected.includes(`\n  ${name}${optional ? '?' : ''}: `), `${entry.name}.${name}`);
    }
  });
}
