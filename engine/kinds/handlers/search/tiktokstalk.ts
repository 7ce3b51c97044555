import { notFound, upstreamError } from '../../../core/errors.js';
import { PageData } from '../../../features/tools/html/page-data.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/stalk/tiktokstalk: a public TikTok profile, read from the JSON the profile page
 * embeds for its own hydration (upstream `tiktok-web`). TikTok answers an unknown or
 * banned account with the same page and a status code inside that JSON, not with a 404.
 */
interface UserDetail {
  statusCode?: number;
  userInfo?: {
    user?: {
      id: string;
      uniqueId: string;
      nickname: string;
      avatarLarger?: string;
      signature?: string;
      verified?: boolean;
      privateAccount?: boolean;
      secret?: boolean;
      bioLink?: { link?: string };
      region?: string;
      language?: string;
      createTime?: number;
    };
    stats?: Record<string, number>;
    /** The same counts unrounded, as strings (newer pages); `stats` may be rounded to 3 digits. */
    statsV2?: Record<string, string>;
  };
}
interface Rehydration {
  __DEFAULT_SCOPE__?: { 'webapp.user-detail'?: UserDetail };
}

const UPSTREAM = 'tiktok-web';
/** 10221: no such account (or banned); 10202: the older code for an account that does not exist. */
const NO_ACCOUNT = new Set([10221, 10202]);

export default handler<Params['search/tiktokstalk']>(async ({ params, call, setup }) => {
  const username = params.username.replace(/^@/, '');
  const html = await setup.upstreams.text(UPSTREAM, {
    path: `/@${encodeURIComponent(username)}`,
    signal: call.signal,
    notFound: 'No TikTok account has this username',
  });
  return runPoolTask('search/tiktokstalk#extract', { html }, { signal: call.signal, services: setup });
});

/** The profile from the page's rehydration data, read in the code pool. */
export const extract = poolTask<{ html: string }>()(({ params: { html } }) => {
  const detail = new PageData(html, UPSTREAM).scriptJson<Rehydration>('__UNIVERSAL_DATA_FOR_REHYDRATION__')?.__DEFAULT_SCOPE__?.['webapp.user-detail'];
  // a page without it is TikTok's bot check or a redesign: either way nothing to read
  if (!detail) throw upstreamError(UPSTREAM, 'the profile page carried no profile data (TikTok may be asking this server for a bot check)');
  if (NO_ACCOUNT.has(detail.statusCode ?? 0)) throw notFound('No TikTok account has this username (or it was banned)');
  const user = detail.userInfo?.user;
  if (detail.statusCode || !user?.uniqueId) throw upstreamError(UPSTREAM, `the profile data had status ${detail.statusCode ?? 'none'} and no user`);
  const count = (name: string): number | null => {
    const exact = detail.userInfo?.statsV2?.[name];
    return exact !== undefined && /^\d+$/.test(exact) ? Number(exact) : (detail.userInfo?.stats?.[name] ?? null);
  };
  return {
    id: user.id,
    username: user.uniqueId,
    name: user.nickname,
    bio: user.signature ?? '',
    verified: user.verified === true,
    private: user.privateAccount === true,
    avatar: user.avatarLarger ?? null,
    website: { link: user.bioLink?.link || null },
    followers: count('followerCount'),
    following: count('followingCount'),
    likes: count('heartCount'),
    videos: count('videoCount'),
    friends: count('friendCount'),
    region: user.region || null,
    created: user.createTime ? new Date(user.createTime * 1000).toISOString() : null,
    url: `https://www.tiktok.com/@${user.uniqueId}`,
  };
});
