import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { ROOT } from '../../engine/root.js';
import { serve } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

// The Grafana dashboard and Prometheus config in deploy/monitoring cannot be loaded into
// Grafana here; what keeps them honest is that every series they query is one a running
// engine exports, or one CONTRACT.md promises that is listed here until its feature exports it.
const PROMISED = new Set<string>();
const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy/monitoring/grafana-dashboard.json'), 'utf8')) as {
  uid: string;
  panels: { title: string; targets: { expr: string }[] }[];
};
const PROMQL_WORDS = new Set([
  'sum',
  'by',
  'rate',
  'histogram_quantile',
  'topk',
  'max',
  'le',
  'category',
  'endpoint',
  'status',
  'upstream',
  'outcome',
  'pool',
  'state',
  'instance',
  'job',
]);

/** Metric names a PromQL expression reads: identifiers that are not functions, keywords or labels. */
const metricsIn = (expr: string) =>
  [
    ...expr
      .replace(/\{[^}]*\}/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .matchAll(/[a-z_][a-z0-9_]*/g),
  ]
    .map((m) => m[0])
    .filter((w) => !PROMQL_WORDS.has(w));

t.test('every series the dashboard queries is exported by the engine or promised by the contract', async (t) => {
  const { endpoints, upstream } = testEndpoints();
  const served = await serve({}, { endpoints, upstreamSpecs: upstream('http://127.0.0.1:9') });
  t.teardown(() => served.close());
  const exposition = await (await fetch(`${served.url}/metrics`)).text();
  const exported = new Set(
    [...exposition.matchAll(/^# TYPE (\S+) (\S+)/gm)].flatMap(([, name, type]) =>
      type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name],
    ),
  );
  exported.add('up'); // Prometheus's own per-target series
  t.ok(dashboard.panels.length >= 8, `${dashboard.panels.length} panels`);
  for (const panel of dashboard.panels) {
    for (const { expr } of panel.targets) {
      const names = metricsIn(expr);
      t.ok(names.length > 0, `${panel.title}: queries a metric`);
      for (const name of names) t.ok(exported.has(name) || PROMISED.has(name), `${panel.title}: ${name} is exported or promised`);
    }
  }
});

t.test('Prometheus scrapes each API instance and worker of compose directly, on the port the image listens on', async (t) => {
  const prometheus = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/monitoring/prometheus.yml'), 'utf8'));
  const compose = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true });
  const port = Number(/PORT=(\d+)/.exec(fs.readFileSync(path.join(ROOT, 'deploy/Dockerfile'), 'utf8'))![1]);
  // found by their service names in Docker's DNS (every replica), not listed one by one
  const discovered: { names: string[]; port: number }[] = prometheus.scrape_configs.flatMap((c: any) => c.dns_sd_configs ?? []);
  const manifold = Object.keys(compose.services).filter((name) => compose.services[name].build);
  t.same(discovered.flatMap((d) => d.names).sort(), manifold.sort());
  for (const d of discovered) t.equal(d.port, port);
});
