/**
 * The football endpoints as clients reach them: every competition of data/leagues.yaml by its
 * slug and by its ESPN code (dotted codes included), the genre's alias names, and the request
 * each one makes to ESPN, against a local server standing in for ESPN.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadManifestFile } from '../../engine/catalog/load.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
import { serve as serveEngine, TEST_KEY } from '../support/serve.js';
import { serve as serveLocal } from '../http/local-server.js';

const sportsDir = path.join(ENDPOINTS_DIR, 'sports');
const leagues: { slug: string; code: string; standings: boolean }[] = YAML.parse(fs.readFileSync(path.join(sportsDir, 'data/leagues.yaml'), 'utf8'));
const endpoints = fs
  .readdirSync(sportsDir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => loadManifestFile(path.join(sportsDir, f), `sports/${f}`));
const scoreboard = fs.readFileSync(path.join(sportsDir, 'fixtures/espn-scoreboard.json'));

const espn = await serveLocal(t, (req, res) => {
  const found = /^\/apis\/site\/v2\/sports\/soccer\/[a-z0-9._]+\/scoreboard$/.test(new URL(req.url!, 'http://x').pathname);
  res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' }).end(found ? scoreboard : '{"code":404}');
});
const served = await serveEngine({ ESPN_URL: espn.origin }, { endpoints, upstreamSpecs: loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')) });
t.teardown(() => served.close());

async function get(route: string) {
  const res = await fetch(`${served.url}${route}`, { headers: { 'x-api-key': TEST_KEY } });
  return { status: res.status, body: (await res.json()) as any };
}
const lastPath = () => new URL(espn.requests.at(-1)!.url!, 'http://x').pathname;

t.test('at least 51 competitions, each with a unique slug and ESPN code', async (t) => {
  t.ok(leagues.length >= 51, `${leagues.length} competitions`);
  t.equal(new Set(leagues.map((l) => l.slug)).size, leagues.length);
  t.equal(new Set(leagues.map((l) => l.code)).size, leagues.length);
});

t.test('every competition answers by slug and by ESPN code, asking ESPN for its own code', async (t) => {
  for (const { slug, code } of leagues) {
    for (const route of [`/api/football/${slug}/livescore`, `/api/football/${code}/upcomingmatches`, `/api/football/${slug}/finished`]) {
      const answer = await get(route);
      t.equal(answer.status, 200, route);
      t.equal(lastPath(), `/apis/site/v2/sports/soccer/${code}/scoreboard`, `${route} asks ESPN for ${code}`);
    }
  }
});

t.test('standings exist exactly for the competitions that have a table', async (t) => {
  const routes = new Set(endpoints.flatMap((e) => [e.path, ...e.aliases]));
  for (const { slug, code, standings } of leagues) {
    t.equal(routes.has(`/api/football/${slug}/standings`), standings, `${slug} standings`);
    t.equal(routes.has(`/api/football/${code}/table`), false, 'the table alias is by slug only');
  }
});

t.test("the genre's names reach the same data", async (t) => {
  const live = await get('/api/sports/live?category=football&league=eng.1');
  t.equal(live.status, 200);
  t.match(live.body.result, { totalMatches: 1, matches: [{ title: 'Liverpool vs Everton', state: 'in' }] });
  const all = await get('/api/sports/all?category=football&league=eng.1');
  t.match(all.body.result, { totalMatches: 3 });
  const keith = await get('/api/football/epl/upcomingmatches');
  t.match(keith.body.result, { league: 'English Premier League', totalMatches: 1, matches: [{ title: 'Manchester City vs Tottenham Hotspur' }] });
  const bad = await get('/api/sports/live?category=cricket');
  t.equal(bad.status, 400, 'only football is a category');
});
