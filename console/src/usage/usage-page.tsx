import { useEffect, useMemo, useState } from 'preact/hooks';
import { ColumnHeads } from '../column-heads.js';
import { api, fetchText, query } from '../api.js';
import { bytes, count, daysAgo, utcDay } from '../format.js';
import { KeySelect } from '../key-select.js';
import { ErrorMessage, PageHeading } from '../page-heading.js';
import type { KeyRecord, UsageFigures, UsageReport } from '../types.js';
import { BarChart, type Series } from './bar-chart.js';

const USAGE = '/api/admin/usage';
/** Bars per chart of endpoints and keys: the largest; the API's totals still cover the rest. */
const TOP = 15;

/** Status classes in a palette that stays apart for colour-blind readers (Okabe–Ito). */
const CLASSES = [
  { field: 'requests_2xx', label: '2xx', color: '#009e73' },
  { field: 'requests_3xx', label: '3xx', color: '#56b4e9' },
  { field: 'requests_4xx', label: '4xx', color: '#e69f00' },
  { field: 'requests_5xx', label: '5xx', color: '#d55e00' },
] as const;

const series = (rows: UsageFigures[]): Series[] =>
  CLASSES.map((c) => ({ label: c.label, color: c.color, values: rows.map((r) => r[c.field]) })).filter((s) => s.values.some((v) => v > 0));

const summarise = (what: string, labels: string[], rows: UsageFigures[]) =>
  rows.length === 0
    ? `${what}: no requests`
    : `${what}: ${labels
        .slice(0, 5)
        .map((l, i) => `${l} ${rows[i]!.requests}`)
        .join(', ')}${rows.length > 5 ? ', …' : ''}`;

/** Every day from `from` to `to`, with zeros where nothing was counted, so gaps show as gaps. */
function everyDay(from: string, to: string, byDay: UsageReport['by_day']): UsageReport['by_day'] {
  const known = new Map(byDay.map((d) => [d.day, d]));
  const days: UsageReport['by_day'] = [];
  const zero = { requests: 0, requests_2xx: 0, requests_3xx: 0, requests_4xx: 0, requests_5xx: 0, bytes_out: 0, prompt_tokens: 0, completion_tokens: 0 };
  for (let at = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); at <= end && days.length < 400; at += 86_400_000) {
    const day = utcDay(new Date(at));
    days.push(known.get(day) ?? { day, ...zero });
  }
  return days;
}

/** Usage: requests per day, per endpoint and per key, by status class, with bytes and AI tokens (GET /api/admin/usage). */
export function UsagePage({ title }: { title: string }) {
  const [filters, setFilters] = useState({ from: daysAgo(13), to: daysAgo(0), key: '', endpoint: '' });
  const [draft, setDraft] = useState(filters);
  const [report, setReport] = useState<UsageReport | undefined>();
  const [keys, setKeys] = useState<KeyRecord[]>([]);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);

  useEffect(() => void api.get<KeyRecord[]>('/api/admin/keys').then(setKeys, setError), []);
  useEffect(() => {
    setLoading(true);
    api
      .get<UsageReport>(USAGE + query({ ...filters, limit: 1000 }))
      .then(
        (r) => (setReport(r), setError(undefined)),
        (err) => setError(err),
      )
      .finally(() => setLoading(false));
  }, [filters]);

  /** A key's name in the charts: its label, with its id when another key of the report has the same label. */
  const keyName = (id: string, label: string | null) => {
    if (id === 'test') return 'shared test key';
    if (!label) return id;
    return report!.by_key.filter((k) => k.label === label).length > 1 ? `${label} (${id})` : label;
  };
  const charts = useMemo(() => {
    if (!report) return undefined;
    const days = everyDay(report.from ?? filters.from, report.to ?? filters.to, report.by_day);
    const endpoints = report.by_endpoint.slice(0, TOP);
    const byKey = report.by_key.slice(0, TOP);
    return {
      days: { labels: days.map((d) => d.day.slice(5)), rows: days },
      endpoints: { labels: endpoints.map((e) => e.endpoint), rows: endpoints },
      keys: { labels: byKey.map((k) => keyName(k.key_id, k.label)), rows: byKey },
    };
  }, [report]);

  async function downloadCsv() {
    try {
      const csv = await fetchText(USAGE + query({ ...filters, limit: 10000, format: 'csv' }));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      link.download = `usage-${filters.from}-${filters.to}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageHeading title={title}>
        <button type="button" class="quiet" onClick={downloadCsv}>
          Download CSV
        </button>
      </PageHeading>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft });
        }}
      >
        <div class="field">
          <label for="usage-from">From (UTC day)</label>
          <input id="usage-from" type="date" required value={draft.from} onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="usage-to">To</label>
          <input id="usage-to" type="date" required value={draft.to} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="usage-key">Key</label>
          <KeySelect id="usage-key" value={draft.key} keys={keys} onChange={(key) => setDraft({ ...draft, key })} />
        </div>
        <div class="field">
          <label for="usage-endpoint">Endpoint</label>
          <input
            id="usage-endpoint"
            placeholder="/api/fun/quote"
            value={draft.endpoint}
            onInput={(e) => setDraft({ ...draft, endpoint: e.currentTarget.value })}
          />
        </div>
        <button type="submit">Show</button>
      </form>
      <p role="status" class="status">
        {loading ? 'Loading…' : report ? `${count(report.total)} requests${report.truncated ? ' (the sums are cut to the largest 1,000 rows)' : ''}` : ''}
      </p>
      <ErrorMessage error={error} />
      {report && charts && (
        <>
          <dl class="totals">
            {CLASSES.map((c) => (
              <div key={c.field}>
                <dt>{c.label}</dt>
                <dd>{count(report.totals[c.field])}</dd>
              </div>
            ))}
            <div>
              <dt>Bytes out</dt>
              <dd>{bytes(report.totals.bytes_out)}</dd>
            </div>
            <div>
              <dt>AI tokens (prompt / completion)</dt>
              <dd>
                {count(report.totals.prompt_tokens)} / {count(report.totals.completion_tokens)}
              </dd>
            </div>
            {report.totals.media_seconds !== undefined && (
              <div>
                <dt>Media seconds</dt>
                <dd>{count(report.totals.media_seconds)}</dd>
              </div>
            )}
          </dl>
          <UsageChart id="usage-by-day" title="Requests per day" labels={charts.days.labels} rows={charts.days.rows} firstColumn="Day" />
          <UsageChart
            id="usage-by-endpoint"
            title="Requests per endpoint"
            labels={charts.endpoints.labels}
            rows={charts.endpoints.rows}
            firstColumn="Endpoint"
            horizontal
          />
          <UsageChart id="usage-by-key" title="Requests per key" labels={charts.keys.labels} rows={charts.keys.rows} firstColumn="Key" horizontal />
        </>
      )}
    </>
  );
}

function UsageChart(props: { id: string; title: string; labels: string[]; rows: UsageFigures[]; firstColumn: string; horizontal?: boolean }) {
  const { id, title, labels, rows, firstColumn, horizontal } = props;
  const data = useMemo(() => series(rows), [rows]);
  // a server that measures media seconds has the figure in every entry
  const media = rows.some((r) => r.media_seconds !== undefined);
  return (
    <section class="chart-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {rows.every((r) => r.requests === 0) ? (
        <p class="muted">No requests in this range.</p>
      ) : (
        <BarChart id={id} labels={labels} series={data} horizontal={horizontal} summary={summarise(title, labels, rows)} />
      )}
      <details>
        <summary>Numbers</summary>
        <div class="table-wrap">
          <table id={`${id}-table`}>
            <ColumnHeads
              columns={[
                firstColumn,
                'Requests',
                ...CLASSES.map((c) => c.label),
                'Bytes out',
                'Prompt tokens',
                'Completion tokens',
                ...(media ? ['Media seconds'] : []),
              ]}
            />
            <tbody>
              {rows
                .map((row, i) => ({ row, label: labels[i]! }))
                .filter(({ row }) => row.requests > 0)
                .map(({ row, label }, i) => (
                  <tr key={i}>
                    <th scope="row">{label}</th>
                    <td>{count(row.requests)}</td>
                    {CLASSES.map((c) => (
                      <td key={c.field}>{count(row[c.field])}</td>
                    ))}
                    <td>{bytes(row.bytes_out)}</td>
                    <td>{count(row.prompt_tokens)}</td>
                    <td>{count(row.completion_tokens)}</td>
                    {media && <td>{count(row.media_seconds ?? 0)}</td>}
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
