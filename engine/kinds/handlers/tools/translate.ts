import { invalidParameter } from '../../../core/errors.js';
import { apertiumFor } from '../../../features/translate/apertium.js';
import { describePairs, detectSource, findPair, sourcesInto } from '../../../features/translate/apertium-pairs.js';
import { iso3, parseLanguage } from '../../../features/translate/languages.js';
import { configuredServices, translateWith } from '../../../features/translate/services.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const OTHER_SERVICES = 'set LIBRETRANSLATE_URL, DEEPL_API_KEY or OPENAI_BASE_URL for other languages';

/**
 * /api/tools/translate: `result` is the translation. A configured translation service
 * translates (LibreTranslate, then DeepL, then the AI provider); without one, or with
 * engine=apertium, the embedded Apertium does, for the pairs installed here.
 */
export default handler<Params['tools/translate']>(async ({ params, call, setup }) => {
  const to = parseLanguage(params.lang);
  const from = params.from && params.from.toLowerCase() !== 'auto' ? parseLanguage(params.from) : undefined;
  const timeoutMs = setup.endpoint.limits.timeoutMs ?? 30_000;
  const services = configuredServices(setup);
  const engine = params.engine === 'auto' ? (services[0] ?? 'apertium') : params.engine;
  if (engine !== 'apertium') {
    if (!services.includes(engine)) throw invalidParameter('engine', `${engine} is not configured here (configured: ${[...services, 'apertium'].join(', ')})`);
    return translateWith(engine, setup, { text: params.text, from, to, signal: call.signal, timeoutMs });
  }

  const apertium = apertiumFor(setup.scope, setup.config, setup.http);
  const pairs = await apertium.pairs(call.signal);
  const candidates = sourcesInto(pairs, to);
  const unsupported = (param: string) => invalidParameter(param, `Apertium here translates ${describePairs(pairs)}; ${OTHER_SERVICES}`);
  if (!candidates.length && !(from && iso3({ base: from.base }) === iso3({ base: to.base }))) throw unsupported('lang');
  // the target is no candidate: franc takes short texts for the wrong language too often, and an untranslated answer is the worse mistake
  const source = from ? iso3({ base: from.base }) : await detectSource(params.text, candidates);
  if (source === iso3({ base: to.base })) return params.text; // from = lang: nothing to translate
  const pair = findPair(pairs, source, to);
  if (!pair) throw unsupported(from ? 'from' : 'lang');
  return apertium.translate(params.text, pair, call.signal, timeoutMs);
});
