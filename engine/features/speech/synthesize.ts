import fs from 'node:fs';
import path from 'node:path';
import { startTool } from '../media/child.js';
import { binaryPath } from '../../core/binaries.js';
import { toolError } from '../audio/source.js';
import type { Voice } from './voices.js';

/**
 * Speech from the installed engines into a WAV file. The text always goes through a
 * file, never an argument (a leading `-` or a Scheme form in it is just text), and each
 * engine is a child process killed with the call.
 */
export async function synthesize(env: Readonly<Record<string, string>>, voice: Voice, text: string, dir: string, signal: AbortSignal): Promise<string> {
  const input = path.join(dir, 'text.txt');
  const output = path.join(dir, 'speech.wav');
  await fs.promises.writeFile(input, text, 'utf8');
  const [bin, args] = command(voice, input, output);
  const tool = startTool(binaryPath(bin, env), args, { signal, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    await tool.exited;
  } catch (error) {
    toolError(signal, voice.engine, 'the speech could not be synthesised', error);
  }
  return output;
}

function command(voice: Voice, input: string, output: string): [string, string[]] {
  switch (voice.engine) {
    case 'festival':
      // text2wave reads the file in Festival's text mode; the voice name was checked at discovery
      return ['text2wave', ['-o', output, '-eval', `(voice_${voice.name})`, input]];
    case 'flite':
      return ['flite', ['-voice', voice.name, '-f', input, '-o', output]];
    case 'espeak-ng':
      // -b 1: the file is UTF-8
      return ['espeak-ng', ['-v', voice.name, '-b', '1', '-f', input, '-w', output]];
  }
}
