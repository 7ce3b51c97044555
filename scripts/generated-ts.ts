/**
 * What the build's TypeScript generators share (scripts/handler-params.ts,
 * scripts/schema-types.ts): json-schema-to-typescript's output indented without running
 * prettier, and the file written only when its text changed.
 */
import fs from 'node:fs';

/** Two spaces per level (the generator's own formatting runs prettier, which costs seconds). */
export function indent(ts: string): string {
  let depth = 0;
  return ts
    .split('\n')
    .map((line) => {
      const text = line.trim();
      if (/^[}\])]/.test(text)) depth--;
      const out = text ? '  '.repeat(Math.max(depth, 0)) + (text.startsWith('*') ? ' ' : '') + text : '';
      if (/[{[(]$/.test(text)) depth++;
      return out;
    })
    .join('\n');
}

/**
 * Write `file` with what `generate` makes, when it differs: true when written, false when
 * current, undefined when the generator (a devDependency) is not installed.
 */
export async function writeGenerated(file: string, generate: () => Promise<string>): Promise<boolean | undefined> {
  let ts: string;
  try {
    ts = await generate();
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw err;
  }
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === ts) return false;
  fs.writeFileSync(file, ts);
  return true;
}
