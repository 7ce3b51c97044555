import { upstreamError } from '../../../core/errors.js';
import { parseLanguage } from '../../../features/translate/languages.js';
import { configuredServices, translateWith } from '../../../features/translate/services.js';
import { handler, type HandlerInput } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/bible: a passage by reference from bible-api.com (public-domain translations),
 * with the names the genre's atassa bots read beside Manifold's own: verse (the reference),
 * versesCount, data (the text) and translations {swahili, hindi}. Those two are machine
 * translations by the translation service the host configured (LibreTranslate, DeepL or the AI
 * provider, tried in that order, as /api/tools/translate); each is null when no service is
 * configured or none could translate it: the passage itself never waits on them.
 */
interface Verse {
  book_name?: string;
  chapter?: number;
  verse?: number;
  text?: string;
}

interface Passage {
  reference?: string;
  text?: string;
  translation_id?: string;
  translation_name?: string;
  translation_note?: string;
  verses?: Verse[];
}

type Input = HandlerInput<Params['search/bible']>;

/** Each service has this long for one translation; the passage is answered whatever they do. */
const TRANSLATE_MS = 12_000;

async function translated(input: Input, text: string, to: string): Promise<string | null> {
  const { setup, call } = input;
  for (const service of configuredServices(setup)) {
    try {
      const out = await translateWith(service, setup, { text, to: parseLanguage(to), signal: call.signal, timeoutMs: TRANSLATE_MS });
      if (out.trim()) return out.trim();
    } catch (error) {
      if (call.signal.aborted) throw error;
    }
  }
  return null;
}

export default handler<Params['search/bible']>(async (input) => {
  const { params, call, setup } = input;
  const answer = await setup.upstreams.call<Passage>('bible-api', {
    path: `/${encodeURIComponent(params.verse)}`,
    query: { translation: params.translation },
    notFound: 'No passage matches this reference',
    signal: call.signal,
  });
  if (!Array.isArray(answer?.verses)) throw upstreamError('bible-api', 'unexpected response shape');
  const text = (answer.text ?? '').trim();
  const verses = answer.verses.map((v) => ({ book: v.book_name, chapter: v.chapter, verse: v.verse, text: (v.text ?? '').trim() }));
  const [swahili, hindi] = text ? await Promise.all([translated(input, text, 'sw'), translated(input, text, 'hi')]) : [null, null];
  return {
    reference: answer.reference,
    text,
    translation: answer.translation_name,
    translationId: answer.translation_id,
    note: answer.translation_note,
    verses,
    // the genre's names
    verse: answer.reference,
    versesCount: verses.length,
    data: text,
    translations: { swahili, hindi },
  };
});
