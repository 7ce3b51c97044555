import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Worker } from 'tesseract.js';
import { abortable } from '../../core/abortable.js';
import type { EngineScope } from '../../platform/scope.js';
import { MEMORY_PROFILES } from '../../platform/settings/memory-profile.js';

/**
 * Tesseract (tesseract.js: the C++ engine compiled to WebAssembly, running in its own
 * worker thread, so recognition never blocks the event loop). Languages are the
 * `@tesseract.js-data/<code>` packages installed beside it (English ships with
 * Manifold; `npm i @tesseract.js-data/spa` adds Spanish). One worker per language is
 * started on first use and kept warm — start-up costs 1–3 s, a warm page ~0.3–0.6 s —
 * until it has been idle for OCR_IDLE_MS (by MEMORY_PROFILE: 60 s, or 10 s with `small`;
 * a worker holds ~80 MiB of WebAssembly memory that only its exit gives back), and every
 * worker is terminated on shutdown.
 */
const require = createRequire(import.meta.url);

/** Two-letter codes clients send, for the languages that have a tesseract.js data package. */
const ISO_639_1: Record<string, string> = {
  ar: 'ara',
  bn: 'ben',
  de: 'deu',
  el: 'ell',
  en: 'eng',
  es: 'spa',
  fa: 'fas',
  fr: 'fra',
  he: 'heb',
  hi: 'hin',
  id: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  ms: 'msa',
  nl: 'nld',
  pl: 'pol',
  pt: 'por',
  ru: 'rus',
  sv: 'swe',
  th: 'tha',
  tr: 'tur',
  uk: 'ukr',
  ur: 'urd',
  vi: 'vie',
  zh: 'chi_sim',
};

/** Tesseract's language code for what a client sent (`en`, `eng`, `chi_sim`). */
export const tesseractCode = (lang: string): string => ISO_639_1[lang.toLowerCase()] ?? lang.toLowerCase();

interface LanguageData {
  langPath: string;
  gzip: boolean;
}

function dataPackage(code: string): LanguageData | undefined {
  if (!/^[a-z]{3}(_[a-z]+)?$/.test(code) || code === 'osd') return undefined;
  try {
    const data = require(`@tesseract.js-data/${code}`) as { langPath?: string; gzip?: boolean };
    return data.langPath ? { langPath: lstmModel(data.langPath), gzip: data.gzip !== false } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The package's LSTM-only integer model (`4.0.0_best_int`) beside the combined one its
 * `langPath` names (`4.0.0`, legacy engine included): the workers run the LSTM engine
 * only (OEM 1), which is the model tesseract.js itself loads for it. The combined file
 * cost each warm worker ~75 MiB more (bench/memory) for parts OEM 1 never uses.
 */
function lstmModel(langPath: string): string {
  const lstm = `${langPath}_best_int`;
  return fs.existsSync(lstm) ? lstm : langPath;
}

/** Codes of the installed data packages, e.g. ['eng']. */
export function installedLanguages(): string[] {
  let scope: string;
  try {
    scope = path.dirname(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')));
  } catch {
    return [];
  }
  return fs
    .readdirSync(scope)
    .filter((code) => dataPackage(code))
    .sort();
}

export interface OcrLine {
  text: string;
  /** 0–100, Tesseract's mean word confidence for the line. */
  confidence: number;
}

export interface OcrResult {
  text: string;
  lines: OcrLine[];
  /** 0–100 for the whole page. */
  confidence: number;
}

interface Warm {
  worker: Promise<Worker>;
  idle?: NodeJS.Timeout;
  busy: number;
}

/** The warm workers of one engine, by language (engine/platform/scope.ts: stopped with the engine). */
type Workers = Map<string, Warm>;

const workersOf = (scope: EngineScope): Workers => scope.own('ocr', (): Workers => new Map(), { close: closeAll });

async function closeAll(workers: Workers): Promise<void> {
  const all = [...workers.values()];
  workers.clear();
  await Promise.allSettled(
    all.map(async (w) => {
      clearTimeout(w.idle);
      await (await w.worker).terminate();
    }),
  );
}

function warmWorker(workers: Workers, code: string, data: LanguageData): Warm {
  let warm = workers.get(code);
  if (!warm) {
    const worker = import('tesseract.js').then(({ createWorker }) =>
      // cacheMethod none: the data comes from the package, nothing is written to the working directory
      createWorker(code, 1, { langPath: data.langPath, gzip: data.gzip, cacheMethod: 'none' }),
    );
    warm = { worker, busy: 0 };
    workers.set(code, warm);
    worker.catch(() => workers.delete(code)); // a failed start is retried by the next call
  }
  clearTimeout(warm.idle);
  return warm;
}

function release(workers: Workers, code: string, warm: Warm, idleMs: number): void {
  warm.busy--;
  if (warm.busy > 0 || workers.get(code) !== warm) return;
  warm.idle = setTimeout(() => {
    if (workers.get(code) !== warm || warm.busy > 0) return;
    workers.delete(code);
    void warm.worker.then((w) => w.terminate()).catch(() => undefined);
  }, idleMs);
  warm.idle.unref();
}

/**
 * Recognise the text of an image (PNG/JPEG/… bytes, already size-checked) in `code`,
 * an installed language. A call that is aborted stops waiting at once; the page it
 * started finishes in the worker (Tesseract cannot stop mid-page), which is why the
 * caller bounds the image's size. `idleMs`: OCR_IDLE_MS (config.memory).
 */
export async function recognize(
  image: Buffer,
  code: string,
  signal: AbortSignal,
  scope: EngineScope,
  idleMs: number = MEMORY_PROFILES.default.ocrIdleMs,
): Promise<OcrResult> {
  const data = dataPackage(code);
  if (!data) throw new Error(`no tesseract.js data package for ${code}`);
  const workers = workersOf(scope);
  const warm = warmWorker(workers, code, data);
  warm.busy++;
  try {
    const job = warm.worker.then((worker) => worker.recognize(image, {}, { text: true, blocks: true }));
    const { data: page } = await abortable(job, signal);
    const lines: OcrLine[] = [];
    for (const block of page.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          const text = line.text.trim();
          if (text) lines.push({ text, confidence: Math.round(line.confidence) });
        }
      }
    }
    return { text: page.text.trim(), lines, confidence: Math.round(page.confidence) };
  } finally {
    release(workers, code, warm, idleMs);
  }
}
