import t from 'tap';
import type { AdapterSetup } from '../../engine/contract/call.js';
import { spotifyApi, spotifyToken } from '../../engine/features/spotify/token.js';
import { EngineScope } from '../../engine/platform/scope.js';

/** A setup whose spotify-accounts hands out numbered tokens valid `seconds`, recording every call. */
function fakeSetup(seconds: number, clientId: string, missing?: string, scope = new EngineScope()) {
  const calls: { name: string; request: any }[] = [];
  let n = 0;
  const upstreams = {
    get: () => ({ baseUrl: 'https://accounts.example' }),
    unavailable: (name: string) => (missing && name === 'spotify-accounts' ? `spotify-accounts: ${missing} not set` : undefined),
    call: async (name: string, request: any) => {
      calls.push({ name, request });
      if (name === 'spotify-accounts') {
        await new Promise((r) => setTimeout(r, 10));
        return { access_token: `token-${++n}`, token_type: 'Bearer', expires_in: seconds };
      }
      return { ok: true };
    },
  };
  const setup = { upstreams, scope, config: { env: { SPOTIFY_CLIENT_ID: clientId, SPOTIFY_CLIENT_SECRET: 'secret' } } } as unknown as AdapterSetup;
  return { setup, calls };
}

t.test('one token request for concurrent callers, reused until near expiry', async (t) => {
  const { setup, calls } = fakeSetup(3600, 'app-a');
  const tokens = await Promise.all([spotifyToken(setup), spotifyToken(setup), spotifyToken(setup)]);
  t.same(tokens, ['token-1', 'token-1', 'token-1']);
  t.equal(await spotifyToken(setup), 'token-1');
  t.equal(calls.length, 1);
  t.same(calls[0].request.form, { grant_type: 'client_credentials' });
  t.equal(calls[0].request.headers.authorization, `Basic ${Buffer.from('app-a:secret').toString('base64')}`);
});

t.test('each engine holds its own token (its scope), even for the same app', async (t) => {
  const one = fakeSetup(3600, 'app-d');
  const two = fakeSetup(3600, 'app-d');
  t.equal(await spotifyToken(one.setup), 'token-1');
  t.equal(await spotifyToken(two.setup), 'token-1', 'the second engine asked for its own');
  t.equal(one.calls.length + two.calls.length, 2);
  const sameScope = fakeSetup(3600, 'app-d', undefined, (one.setup as unknown as { scope: EngineScope }).scope);
  t.equal(await spotifyToken(sameScope.setup), 'token-1', "the first engine's token, reused");
  t.equal(sameScope.calls.length, 0);
});

t.test('a token within a minute of expiry is replaced', async (t) => {
  const { setup, calls } = fakeSetup(60, 'app-b');
  t.equal(await spotifyToken(setup), 'token-1');
  t.equal(await spotifyToken(setup), 'token-2');
  t.equal(calls.length, 2);
});

t.test('API calls carry the bearer token; unset keys are a 503 before any call', async (t) => {
  const { setup, calls } = fakeSetup(3600, 'app-c');
  await spotifyApi(setup, '/search', { q: 'x', type: 'track' });
  t.equal(calls[1].name, 'spotify-api');
  t.equal(calls[1].request.headers.authorization, 'Bearer token-1');
  const unset = fakeSetup(3600, 'app-d', 'SPOTIFY_CLIENT_SECRET');
  await t.rejects(spotifyApi(unset.setup, '/search', {}), { status: 503, code: 'unavailable', message: /SPOTIFY_CLIENT_SECRET/ });
  t.equal(unset.calls.length, 0);
});
