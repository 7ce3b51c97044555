import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { ROOT } from '../../engine/core/root.js';
import { serve } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

// The Grafana dashboard and Prometheus config in deploy/monitoring cannot be loaded into
// Grafana here; what keeps them honest is that every series they and the alert rules query
// is one a running engine exports, or one docs/using/contract.md promises that is listed here until
// its feature exports it. The alert rules are checked and unit-tested by promtool.
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
  'min',
  'and',
  'class',
  'dependency',
  'circuit',
  'kind',
  'tier',
]);
const alerts = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/monitoring/alerts.yml'), 'utf8')) as {
  groups: { name: string; rules: { alert: string; expr: string }[] }[];
};

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

/** Every series a running engine's /metrics names (histograms by their three series), and Prometheus's own `up`. */
async function exportedSeries(t: { teardown(fn: () => unknown): void }): Promise<Set<string>> {
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
  return exported;
}

t.test('every series the alert rules query is exported by the engine', async (t) => {
  const exported = await exportedSeries(t);
  const rules = alerts.groups.flatMap((g) => g.rules);
  t.ok(rules.length >= 6, `${rules.length} rules`);
  for (const rule of rules) {
    const names = metricsIn(rule.expr);
    t.ok(names.length > 0, `${rule.alert}: queries a metric`);
    for (const name of names) t.ok(exported.has(name), `${rule.alert}: ${name} is exported`);
  }
  const prometheus = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/monitoring/prometheus.yml'), 'utf8'));
  t.same(prometheus.rule_files, ['alerts.yml'], 'prometheus.yml loads them');
});

const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((bin) => fs.existsSync(bin));
t.test(
  'promtool: the rules are valid and each alert fires on the series its unit tests feed it',
  { skip: promtool ? false : 'promtool is not installed (apt-get install prometheus; .ci/run installs it)' },
  async (t) => {
    for (const args of [
      ['check', 'rules', 'alerts.yml'],
      ['test', 'rules', 'alerts.test.yml'],
    ]) {
      const ran = spawnSync(promtool!, args, { cwd: path.join(ROOT, 'deploy/monitoring'), encoding: 'utf8' });
      t.equal(ran.status, 0, `promtool ${args.join(' ')}: ${ran.stdout}${ran.stderr}`);
      t.match(ran.stdout, /SUCCESS/);
    }
    const tested = new Set([...fs.readFileSync(path.join(ROOT, 'deploy/monitoring/alerts.test.yml'), 'utf8').matchAll(/alertname: (\w+)/g)].map((m) => m[1]));
    for (const alert of ['ManifoldInstanceDown', 'ManifoldNotReady', 'ManifoldPoolSaturated', 'ManifoldJobBacklog'])
      t.ok(tested.has(alert), `${alert} has a unit test`);
  },
);

t.test('every series the dashboard queries is exported by the engine or promised by the contract', async (t) => {
  const exported = await exportedSeries(t);
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
