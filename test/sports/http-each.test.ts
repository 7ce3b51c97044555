/**
 * The http adapter's fan-out (`each`/`merge`, used by the football live scores across
 * competitions), `decode: html` (Open Trivia DB) and its handling of mappings that fail
 * on an answer, against a fake HTTP client that records the URLs asked for.
 */
import t from 'tap';
import { http } from '../../engine/kinds/adapters/http.js';
import { ApiError, upstreamError } from '../../engine/core/errors.js';
import { UpstreamRegistry } from '../../engine/catalog/upstreams.js';
import type { HttpClient } from '../../engine/platform/http/client.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';
import { adapterCall } from '../support/adapter-call.js';

/** Answers by URL path; a path mapped to an Error fails with it. */
function fakeSetup(answers: Record<string, unknown>) {
  const asked: string[] = [];
  // calls go through the upstream registry (one place builds them); its HTTP client is the fake
  const http = {
    upstreamJson: async ({ url }: { url: string }) => {
      const path = new URL(url).pathname;
      asked.push(path);
      const answer = answers[path];
      if (answer instanceof Error) throw answer;
      if (answer === undefined) throw upstreamError('espn', 'HTTP 404');
      return answer;
    },
  } as unknown as HttpClient;
  const setup = {
    config: { env: {} },
    endpoint: { limits: { timeoutMs: 5000 } },
    upstreams: new UpstreamRegistry([{ name: 'espn', description: 'test', baseUrl: { env: 'ESPN_URL', default: 'http://espn.test' } }], {}, http),
    http,
  } as unknown as AdapterSetup;
  return { setup, asked };
}
const call = adapterCall;

const fanOut = {
  providers: [
    {
      upstream: 'espn',
      path: '/${params.league}/scoreboard',
      result: 'events[].name',
      each: { param: 'league', values: ['eng.1', 'esp.1', 'ger.1'], merge: 'let $m = [] in {total: length($m), matches: $m}' },
    },
  ],
};

t.test('without the param: one request per value, answers merged, failures left out', async (t) => {
  const { setup, asked } = fakeSetup({
    '/eng.1/scoreboard': { events: [{ name: 'A v B' }, { name: 'C v D' }] },
    '/esp.1/scoreboard': upstreamError('espn', 'HTTP 400'),
    '/ger.1/scoreboard': { events: [{ name: 'E v F' }] },
  });
  const out = await (await http.create(fanOut, setup))(call({}));
  t.same(asked.sort(), ['/eng.1/scoreboard', '/esp.1/scoreboard', '/ger.1/scoreboard']);
  t.same(out, { type: 'json', result: { total: 3, matches: ['A v B', 'C v D', 'E v F'] } });
});

t.test("with the caller's param: one request, merge still shapes the result", async (t) => {
  const { setup, asked } = fakeSetup({ '/ita.1/scoreboard': { events: [{ name: 'G v H' }] } });
  const out = await (await http.create(fanOut, setup))(call({ league: 'ita.1' }));
  t.same(asked, ['/ita.1/scoreboard']);
  t.same(out, { type: 'json', result: { total: 1, matches: ['G v H'] } });
});

t.test('when every value fails, the first failure is the answer', async (t) => {
  const { setup } = fakeSetup({ '/eng.1/scoreboard': upstreamError('espn', 'HTTP 400'), '/esp.1/scoreboard': { unexpected: true } });
  await t.rejects((await http.create(fanOut, setup))(call({})), { status: 502, code: 'upstream_error', message: /HTTP 400/ });
});

t.test('decode: html decodes entities in every string of the result, nested too', async (t) => {
  const config = { providers: [{ upstream: 'espn', path: '/q', result: 'results', decode: 'html' as const }] };
  const { setup } = fakeSetup({
    '/q': { results: [{ question: 'Who made &quot;Half-Life&quot;?', answers: ['Valve &amp; Gearbox', 'Id &#039;Software&#039;'] }] },
  });
  const out = await (await http.create(config, setup))(call({}));
  t.same(out, { type: 'json', result: [{ question: 'Who made "Half-Life"?', answers: ['Valve & Gearbox', "Id 'Software'"] }] });
  const plain = { providers: [{ upstream: 'espn', path: '/q', result: 'results[0].question' }] };
  t.same(await (await http.create(plain, setup))(call({})), { type: 'json', result: 'Who made &quot;Half-Life&quot;?' }, 'left alone without decode');
});

t.test('a mapping that throws on the answer is 502, not a 500', async (t) => {
  const config = { providers: [{ upstream: 'espn', path: '/j', result: "join(' ', [setup, delivery])" }] };
  const { setup } = fakeSetup({ '/j': { setup: 'Only half a joke' } });
  const error = await (await http.create(config, setup))(call({})).catch((e: unknown) => e);
  t.ok(error instanceof ApiError, 'an ApiError');
  t.match(error, { status: 502, code: 'upstream_error', message: /unexpected response shape/ });
});
