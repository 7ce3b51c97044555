import fs from 'node:fs';
import path from 'node:path';
import { captureTool } from '../media/child.js';
import { binaryPath, onPath } from '../../core/binaries.js';

/**
 * The text-to-speech voices installed on this machine, discovered on first use (not
 * hard-coded): Festival's voices (Debian `festvox-*`, e.g. the natural-sounding `slt`
 * HTS voice), flite's built-in voices (fast, English), and espeak-ng's languages
 * (robotic, but 100+ languages). Each voice has a stable id clients pass as `voice`.
 */
export type LocalEngine = 'festival' | 'flite' | 'espeak-ng';

export interface Voice {
  /** What clients pass as `voice`, e.g. `festival-slt`, `flite-awb`, `espeak-es`. */
  id: string;
  engine: LocalEngine;
  /** BCP 47-ish language tag, lower case: `en`, `en-us`, `pt-br`. */
  language: string;
  /** The engine's own name for it (Festival voice function suffix, flite voice, espeak-ng voice file). */
  name: string;
}

const FESTIVAL_VOICES = '/usr/share/festival/voices';
const FESTIVAL_LANGUAGES: Record<string, string> = {
  us: 'en-us',
  english: 'en-gb',
  spanish: 'es',
  welsh: 'cy',
  finnish: 'fi',
  czech: 'cs',
  russian: 'ru',
  italian: 'it',
};
const SAFE_NAME = /^[A-Za-z0-9_.+-]{1,64}$/;

async function festivalVoices(env: Readonly<Record<string, string>>): Promise<Voice[]> {
  if (!onPath('text2wave', env) || !fs.existsSync(FESTIVAL_VOICES)) return [];
  const voices: Voice[] = [];
  for (const language of await fs.promises.readdir(FESTIVAL_VOICES)) {
    const dir = path.join(FESTIVAL_VOICES, language);
    if (!(await fs.promises.stat(dir)).isDirectory()) continue;
    for (const name of await fs.promises.readdir(dir)) {
      if (!SAFE_NAME.test(name)) continue;
      // cmu_us_slt_arctic_hts -> slt: the speaker, as flite names the same voices
      const short = /^cmu_[a-z]+_([a-z]+)_/.exec(name)?.[1] ?? name;
      voices.push({ id: `festival-${short}`, engine: 'festival', language: FESTIVAL_LANGUAGES[language] ?? language, name });
    }
  }
  return voices;
}

/** A listing command's output; a tool that fails to list contributes no voices rather than failing speech. */
const listing = (bin: string, args: string[], env: Readonly<Record<string, string>>): Promise<string> =>
  captureTool(binaryPath(bin, env), args, { signal: AbortSignal.timeout(10_000), maxBytes: 1024 * 1024 }).catch(() => '');

async function fliteVoices(env: Readonly<Record<string, string>>): Promise<Voice[]> {
  if (!onPath('flite', env)) return [];
  const out = await listing('flite', ['-lv'], env);
  // "Voices available: kal awb_time kal16 awb rms slt"; awb_time only says the time
  return (out.split(':')[1] ?? '')
    .trim()
    .split(/\s+/)
    .filter((name) => SAFE_NAME.test(name) && !name.endsWith('_time'))
    .map((name) => ({ id: `flite-${name}`, engine: 'flite', language: 'en-us', name }));
}

async function espeakVoices(env: Readonly<Record<string, string>>): Promise<Voice[]> {
  if (!onPath('espeak-ng', env)) return [];
  const out = await listing('espeak-ng', ['--voices'], env);
  const voices: Voice[] = [];
  const seen = new Set<string>();
  for (const line of out.split('\n').slice(1)) {
    // Pty Language Age/Gender VoiceName File Other-languages
    const [, language, , , file] = line.trim().split(/\s+/);
    if (!language || !file || !SAFE_NAME.test(language) || seen.has(language.toLowerCase())) continue;
    seen.add(language.toLowerCase());
    voices.push({ id: `espeak-${language.toLowerCase()}`, engine: 'espeak-ng', language: language.toLowerCase(), name: language });
  }
  return voices;
}

const discovered = new Map<string, Promise<Voice[]>>();

/** Every installed voice, best first within a language (Festival, then flite, then espeak-ng); listed once per PATH, off the event loop. */
export function localVoices(env: Readonly<Record<string, string>>): Promise<Voice[]> {
  const key = env.PATH ?? '';
  let voices = discovered.get(key);
  if (!voices) {
    voices = Promise.all([festivalVoices(env), fliteVoices(env), espeakVoices(env)]).then((lists) => lists.flat());
    discovered.set(key, voices);
  }
  return voices;
}

/** Codes clients send that espeak-ng knows under another name. */
const LANGUAGE_ALIASES: Record<string, string> = { zh: 'cmn', 'zh-cn': 'cmn', 'zh-hk': 'yue', iw: 'he', in: 'id', no: 'nb' };

/**
 * The voice for a language: the best installed one whose tag is the language or starts
 * with it (`en` finds `en-us`), else one of the same base language (`pt-pt` finds `pt`).
 */
export function voiceFor(voices: Voice[], lang: string): Voice | undefined {
  const asked = lang.toLowerCase().replace(/_/g, '-');
  const tag = LANGUAGE_ALIASES[asked] ?? asked;
  const base = tag.split('-')[0];
  return (
    voices.find((v) => v.language === tag) ??
    voices.find((v) => v.language.startsWith(`${tag}-`)) ??
    voices.find((v) => v.language === base) ??
    voices.find((v) => v.language.split('-')[0] === base)
  );
}
