import { ApiError, notFound, upstreamError } from '../../../core/errors.js';
import { upstreamStatusOf } from '../../../platform/http/client.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/stalk/igstalk: a public Instagram profile from the endpoint Instagram's own web
 * app reads (upstream `instagram`). Instagram refuses anonymous lookups from many server
 * addresses — a 401/403/429, a JSON `require_login`, or a redirect to its login page —
 * which is answered as 502 `login_required` (the host's session cookie or proxy fixes it,
 * not the client), never as "no such user".
 */
interface WebProfile {
  status?: string;
  require_login?: boolean;
  message?: string;
  data?: { user?: IgUser | null };
}
interface IgUser {
  id: string;
  username: string;
  full_name?: string;
  biography?: string;
  external_url?: string | null;
  bio_links?: { title?: string; url?: string }[];
  edge_followed_by?: { count: number };
  edge_follow?: { count: number };
  edge_owner_to_timeline_media?: { count: number };
  highlight_reel_count?: number;
  profile_pic_url?: string;
  profile_pic_url_hd?: string;
  is_private?: boolean;
  is_verified?: boolean;
  is_business_account?: boolean;
  is_professional_account?: boolean;
  category_name?: string | null;
}

const UPSTREAM = 'instagram';
const REFUSED = new Set([401, 403, 429]);

const loginRequired = () =>
  new ApiError(
    'login_required',
    'Instagram asks this server to log in before it shows profiles (it refuses anonymous lookups from many datacenter addresses); the host can set INSTAGRAM_SESSIONID or INSTAGRAM_URL',
  );

export default handler<Params['search/igstalk']>(async ({ params, call, setup }) => {
  const username = params.username.replace(/^@/, '');
  let text: string;
  try {
    text = await setup.upstreams.text(UPSTREAM, {
      path: '/api/v1/users/web_profile_info/',
      query: { username },
      signal: call.signal,
      notFound: 'No Instagram account has this username',
    });
  } catch (err) {
    const status = upstreamStatusOf(err);
    if (status !== undefined && REFUSED.has(status)) throw loginRequired();
    throw err;
  }
  let body: WebProfile;
  try {
    body = JSON.parse(text) as WebProfile;
  } catch {
    // a redirect to the login page ends in its HTML, not in JSON
    if (/<html/i.test(text)) throw loginRequired();
    throw upstreamError(UPSTREAM, 'the answer was not JSON');
  }
  if (body.require_login) throw loginRequired();
  if (body.status !== 'ok' || body.data === undefined) throw upstreamError(UPSTREAM, `status ${body.status ?? 'missing'}`);
  const user = body.data.user;
  if (!user) throw notFound('No Instagram account has this username');
  return {
    id: user.id,
    username: user.username,
    full_name: user.full_name ?? '',
    biography: user.biography ?? '',
    external_url: user.external_url || null,
    bio_links: (user.bio_links ?? []).filter((link) => link.url).map((link) => ({ title: link.title ?? '', url: link.url! })),
    followers: user.edge_followed_by?.count ?? null,
    following: user.edge_follow?.count ?? null,
    posts: user.edge_owner_to_timeline_media?.count ?? null,
    highlights: user.highlight_reel_count ?? null,
    profile_pic: user.profile_pic_url_hd || user.profile_pic_url || null,
    is_private: user.is_private === true,
    is_verified: user.is_verified === true,
    is_business: user.is_business_account === true,
    category: user.category_name || null,
    url: `https://www.instagram.com/${user.username}/`,
    // the same facts under the names the genre's clients read (HANS_BYTE_V2: name, bio, profilePicUrl; MidKnight: profile_pic_url)
    name: user.full_name ?? '',
    fullName: user.full_name ?? '',
    bio: user.biography ?? '',
    profilePicUrl: user.profile_pic_url_hd || user.profile_pic_url || null,
    profile_pic_url: user.profile_pic_url_hd || user.profile_pic_url || null,
  };
});
