import { upstreamError } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/anime/random: a random SFW anime picture from a random waifu.pics category (the
 * still-image ones: reaction GIF categories are their own endpoints). `category` says
 * which one was drawn, so a client can ask /api/anime/<category> for more.
 */
export const CATEGORIES = ['waifu', 'neko', 'shinobu', 'megumin', 'awoo', 'smile', 'happy', 'wink', 'blush', 'smug'] as const;

export default handler<Params['fun/random']>(async ({ params, call, setup }) => {
  const category = params.category ?? CATEGORIES[Math.floor(Math.random() * CATEGORIES.length)];
  const answer = await setup.upstreams.call<{ url?: unknown }>('waifu-pics', { path: `/sfw/${category}`, signal: call.signal });
  if (typeof answer?.url !== 'string') throw upstreamError('waifu-pics', 'no url in the answer');
  return { url: answer.url, category };
});
