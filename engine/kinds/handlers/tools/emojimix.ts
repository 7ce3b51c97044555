import type { AdapterSetup, Call } from '../../../contract/call.js';
import { notFound, upstreamError } from '../../../core/errors.js';
import { upstreamStatusOf } from '../../../platform/http/client.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput, wantsBytes } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/emojimix: the Emoji Kitchen sticker Google made for a pair of emoji,
 * looked up in the public per-emoji metadata (upstream `emoji-kitchen`), whose entry
 * for the first emoji lists every partner in either order. The image itself is on
 * Google's static host (upstream `emoji-kitchen-images`): its bytes (what the genre's
 * clients read), or with hosted=true its link and facts. A pair Google never drew is a 404.
 */
interface Combination {
  gStaticUrl: string;
  alt: string;
  leftEmoji: string;
  rightEmoji: string;
  date: string;
  isLatest: boolean;
}
interface KitchenEmoji {
  emoji: string;
  combinations: Record<string, Combination[]>;
}

const GSTATIC = 'https://www.gstatic.com/android/keyboard/emojikitchen';

const codepoints = (emoji: string) => [...emoji.trim()].map((c) => c.codePointAt(0)!.toString(16)).join('-');
/** The names an emoji may be filed under: as sent, without the VS16 presentation selector, and with it. */
const spellings = (cp: string) => [...new Set([cp, cp.replace(/-fe0f/g, ''), ...(cp.includes('-') ? [] : [`${cp}-fe0f`])])];

async function metadata(setup: AdapterSetup, call: Call, emoji: string): Promise<KitchenEmoji | undefined> {
  for (const name of spellings(codepoints(emoji))) {
    try {
      return await setup.upstreams.call<KitchenEmoji>('emoji-kitchen', { path: `/${name}.json`, signal: call.signal });
    } catch (err) {
      if (upstreamStatusOf(err) !== 404) throw err;
    }
  }
  return undefined;
}

export default handler<Params['tools/emojimix']>(async ({ params, call, setup }) => {
  const left = await metadata(setup, call, params.emoji1);
  if (!left) throw notFound(`${params.emoji1} is not an Emoji Kitchen emoji`);
  const partner = spellings(codepoints(params.emoji2))
    .map((name) => left.combinations?.[name])
    .find(Boolean);
  const combination = partner?.find((c) => c.isLatest) ?? partner?.[0];
  if (!combination) throw notFound(`Emoji Kitchen has no combination of ${params.emoji1} and ${params.emoji2}`);
  if (!combination.gStaticUrl?.startsWith(`${GSTATIC}/`)) throw upstreamError('emoji-kitchen', 'unexpected image link');
  // the configured image host (a mirror, or the test's fixture server) serves the same paths
  const image = { path: combination.gStaticUrl.slice(GSTATIC.length), signal: call.signal, maxBytes: 5 * 1024 * 1024 };
  const { url } = setup.upstreams.request('emoji-kitchen-images', image);
  if (wantsBytes(setup.endpoint, call.params)) {
    const { body } = await setup.upstreams.buffer('emoji-kitchen-images', image);
    return new FileOutput(body, 'png', 'image/png');
  }
  return {
    url,
    image_url: url,
    emoji1: params.emoji1,
    emoji2: params.emoji2,
    description: combination.alt,
    date: combination.date,
    left: combination.leftEmoji,
    right: combination.rightEmoji,
  };
});
