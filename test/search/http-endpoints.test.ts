/**
 * Search endpoints (http adapter) against a local upstream that misbehaves in ways the
 * manifest examples cannot express: slow answers, bodies that are not JSON, and the
 * exact request line (URL-encoded path params, captures).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { serveEndpoints } from './serve-endpoints.js';

interface Upstream {
  base: string;
  urls: string[];
}

async function upstream(t: { teardown(fn: () => unknown): void }, reply: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Upstream> {
  const urls: string[] = [];
  const server = http.createServer((req, res) => {
    urls.push(req.url ?? '');
    reply(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, urls };
}

const json = (res: http.ServerResponse, body: unknown, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

t.test('a slow upstream is a 504 within the endpoint timeout', async (t) => {
  const slow = await upstream(t, (_req, res) => {
    const timer = setTimeout(() => json(res, { objects: [] }), 2000);
    res.on('close', () => clearTimeout(timer));
  });
  const api = await serveEndpoints(t, { files: ['search/npm.yaml'], env: { NPM_REGISTRY_URL: slow.base }, timeoutMs: 300 });
  const res = await api.get('/api/search/npm', { q: 'slow' });
  t.equal(res.status, 504);
  t.match(await res.json(), { success: false, error: 'upstream_timeout' });
});

t.test('a body that is not JSON is a 502', async (t) => {
  const html = await upstream(t, (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'));
  const api = await serveEndpoints(t, { files: ['search/npm.yaml'], env: { NPM_REGISTRY_URL: html.base } });
  const res = await api.get('/api/search/npm', { q: 'html' });
  t.equal(res.status, 502);
  t.match(await res.json(), { error: 'upstream_error', message: /not valid JSON/ });
});

t.test('path params are URL-encoded, so a scoped package stays one path segment', async (t) => {
  const registry = await upstream(t, (_req, res) =>
    json(res, {
      name: '@koa/router',
      'dist-tags': { latest: '14.0.0' },
      versions: { '14.0.0': { version: '14.0.0' } },
      time: { created: '2015-01-01T00:00:00.000Z', '14.0.0': '2025-06-20T08:01:02.000Z' },
      maintainers: [],
    }),
  );
  const api = await serveEndpoints(t, { files: ['search/npmstalk.yaml'], env: { NPM_REGISTRY_URL: registry.base } });
  const res = await api.get('/api/stalk/npmstalk', { packagename: '@koa/router' });
  t.equal(res.status, 200);
  t.same(registry.urls, ['/%40koa%2Frouter']);
  t.match((await res.json()).result, { name: '@koa/router', latestVersion: '14.0.0', latestPublishTime: '2025-06-20T08:01:02.000Z', versionCount: 1 });
});

t.test('captures take owner and repo out of a GitHub URL', async (t) => {
  const github = await upstream(t, (_req, res) => json(res, { name: 'koa', full_name: 'koajs/koa', owner: { login: 'koajs' }, stargazers_count: 1 }));
  const api = await serveEndpoints(t, { files: ['search/repostalk.yaml'], env: { GITHUB_API_URL: github.base } });
  for (const url of ['https://github.com/koajs/koa', 'github.com/koajs/koa.git', 'https://www.github.com/koajs/koa/', 'koajs/koa']) {
    t.equal((await api.get('/api/stalk/repostalk', { url })).status, 200, url);
  }
  t.same(new Set(github.urls), new Set(['/repos/koajs/koa']), 'every form reached the same repository');
});

t.test('the lookup feeds the second request and the result sees both answers', async (t) => {
  const geo = await upstream(t, (_req, res) =>
    json(res, {
      results: [{ name: 'Lagos', latitude: 6.45, longitude: 3.39, country: 'Nigeria', admin1: 'Lagos', timezone: 'Africa/Lagos' }],
      generationtime_ms: 1,
    }),
  );
  const meteo = await upstream(t, (_req, res) =>
    json(res, {
      timezone: 'Africa/Lagos',
      current_units: { temperature_2m: '°C', wind_speed_10m: 'km/h' },
      current: {
        time: '2025-09-13T14:00',
        temperature_2m: 29.5,
        relative_humidity_2m: 80,
        apparent_temperature: 33,
        is_day: 1,
        weather_code: 95,
        wind_speed_10m: 9,
        wind_direction_10m: 200,
      },
      daily: { time: ['2025-09-13'], weather_code: [95], temperature_2m_max: [31], temperature_2m_min: [24], precipitation_probability_max: [90] },
    }),
  );
  const api = await serveEndpoints(t, { files: ['search/weather.yaml'], env: { OPEN_METEO_GEOCODING_URL: geo.base, OPEN_METEO_URL: meteo.base } });
  const { result } = await (await api.get('/api/search/weather', { location: 'Lagos' })).json();
  t.match(meteo.urls[0], /^\/v1\/forecast\?latitude=6\.45&longitude=3\.39&/);
  t.match(result, {
    location: { name: 'Lagos', country: 'Nigeria' },
    current: { temperature: 29.5, description: 'Thunderstorm', isDay: true },
    daily: [{ date: '2025-09-13', max: 31 }],
  });
});
