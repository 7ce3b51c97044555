import t from 'tap';
import randomPicture, { CATEGORIES } from '../../engine/kinds/handlers/fun/random.js';
import type { HandlerInput } from '../../engine/contract/handler.js';
import type { Params } from '../../engine/kinds/handlers/params.generated.js';

t.test('/api/anime/random draws its category at random among the still-picture ones', async (t) => {
  const asked = new Set<string>();
  const setup = { upstreams: { call: async (_name: string, { path }: { path: string }) => (asked.add(path), { url: `https://i.waifu.pics${path}.jpg` }) } };
  const input = (params: Record<string, unknown>) =>
    ({ params, options: {}, call: { signal: new AbortController().signal }, setup }) as unknown as HandlerInput<Params['fun/random']>;
  const wrong: string[] = [];
  for (let i = 0; i < 200; i++) {
    const { url, category } = (await randomPicture(input({}))) as { url: string; category: string };
    if (!(CATEGORIES as readonly string[]).includes(category) || !url.endsWith(`/sfw/${category}.jpg`)) wrong.push(`${category} ${url}`);
  }
  t.same(wrong, [], 'every draw is a known category, and its picture is of that category');
  t.ok(asked.size >= 6, `200 draws reached ${asked.size} of ${CATEGORIES.length} categories`);
  t.same(await randomPicture(input({ category: 'neko' })), { url: 'https://i.waifu.pics/sfw/neko.jpg', category: 'neko' });
});
