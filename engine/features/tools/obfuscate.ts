import { createRequire } from 'node:module';
import { invalidParameter } from '../../core/errors.js';

// loaded on first use: it is a large library and most processes never obfuscate anything
export const require = createRequire(import.meta.url);

export let obfuscator: typeof import('javascript-obfuscator') | undefined;

/**
 * JavaScript obfuscation (javascript-obfuscator): renamed identifiers, an encoded
 * string array and flattened control flow; the program still behaves the same.
 */
export function obfuscateJs(code: string, param = 'code'): string {
  try {
    obfuscator ??= require('javascript-obfuscator') as typeof import('javascript-obfuscator');
    return obfuscator
      .obfuscate(code, {
        compact: true,
        controlFlowFlattening: true,
        controlFlowFlatteningThreshold: 0.5,
        stringArray: true,
        stringArrayEncoding: ['base64'],
        stringArrayThreshold: 1,
        identifierNamesGenerator: 'hexadecimal',
        renameGlobals: false,
      })
      .getObfuscatedCode();
  } catch (err) {
    throw invalidParameter(param, `is not valid JavaScript (${(err as Error).message.split('\n')[0]})`);
  }
}
