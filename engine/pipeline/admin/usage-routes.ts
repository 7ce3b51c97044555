/**
 * GET /api/admin/usage: requests per key, endpoint and UTC day, as counted by every
 * instance into the shared database (engine/platform/db/usage.ts) — with the answers by status
 * class, body bytes sent, AI tokens and media seconds — and the sums per key, per endpoint and per day;
 * `format=csv` gives the rows as CSV for a billing sheet. `auth: admin` (Authorization:
 * Bearer $ADMIN_TOKEN), like key management: it names every key's traffic.
 */
import { json } from '../../contract/call.js';
import { TEST_KEY_ID } from '../../platform/auth/authenticate.js';
import type { KeyStore } from '../../platform/auth/key-store.js';
import type { UsageCounter, UsageSum } from '../../platform/db/usage.js';
import { invalidParameter } from '../../core/errors.js';
import { builtin, type Builtin } from '../builtin.js';

export const ADMIN_USAGE_PATH = '/api/admin/usage';
export const MAX_USAGE_LIMIT = 10_000;

const DAY = { type: 'string', format: 'date', description: 'UTC day, YYYY-MM-DD' };
const requests = { type: 'integer', minimum: 0 };
const count = (description: string) => ({ type: 'integer', minimum: 0, description });
/** The figures beside `requests`, as JSON fields and CSV columns, in this order. */
const FIGURES = {
  requests_2xx: count('Answers with a 2xx status'),
  requests_3xx: count('Answers with a 3xx status (redirects)'),
  requests_4xx: count('Answers with a 4xx status'),
  requests_5xx: count('Answers with a 5xx status'),
  bytes_out: count('Response body bytes sent, streamed and binary answers included'),
  prompt_tokens: count('AI prompt tokens as the provider reported them (a streamed answer only when the provider sends usage in it)'),
  completion_tokens: count('AI completion tokens as the provider reported them (a streamed answer only when the provider sends usage in it)'),
  media_seconds: {
    type: 'number',
    minimum: 0,
    description:
      "Seconds of media downloaded or converted, by the media's duration as yt-dlp and ffmpeg report it (async jobs included; a cached file or a shared download counts for the call that made it), to the millisecond",
  },
};
const FIGURE_NAMES = Object.keys(FIGURES) as (keyof typeof FIGURES)[];
const figuresOf = (s: UsageSum): Record<keyof typeof FIGURES, number> => ({
  requests_2xx: s.status2xx,
  requests_3xx: s.status3xx,
  requests_4xx: s.status4xx,
  requests_5xx: s.status5xx,
  bytes_out: s.bytesOut,
  prompt_tokens: s.promptTokens,
  completion_tokens: s.completionTokens,
  media_seconds: s.mediaMs / 1000,
});
const CSV_COLUMNS = ['day', 'key_id', 'endpoint', 'requests', ...FIGURE_NAMES];
const keyFields = {
  key_id: { type: 'string' },
  tier: { type: ['string', 'null'], description: 'null for a key no longer in the key table' },
  label: { type: ['string', 'null'] },
};

export function usageBuiltins({ usage, store }: { usage: UsageCounter; store: KeyStore }): Builtin[] {
  return [
    builtin({
      method: 'GET',
      path: ADMIN_USAGE_PATH,
      auth: 'admin',
      summary:
        'Requests per key, endpoint and UTC day from every instance, with answers by status class, bytes out, AI tokens and media seconds, and sums per key, endpoint and day; filters key, endpoint, from, to, limit; format=csv',
      query: {
        key: { description: 'Only this key id (as GET /api/admin/keys lists it; `test` is the shared test key)', schema: { type: 'string', maxLength: 200 } },
        endpoint: {
          description: 'Only this endpoint: `GET /api/fun/quote`, or a path alone (`/api/fun/quote`) for every method of it',
          schema: { type: 'string', maxLength: 500 },
        },
        from: { description: 'First UTC day, YYYY-MM-DD (inclusive)', schema: { type: 'string', format: 'date' } },
        to: { description: 'Last UTC day, YYYY-MM-DD (inclusive)', schema: { type: 'string', format: 'date' } },
        limit: {
          description: `Most rows, and most entries in each of by_key, by_endpoint and by_day (largest first); totals cover every matching row`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_USAGE_LIMIT, default: 1000 },
        },
        format: {
          description: `json (the envelope) or csv: the rows, newest day first, with a header row (${CSV_COLUMNS.join(',')})`,
          schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
        },
      },
      result: {
        type: 'object',
        required: ['from', 'to', 'total', 'totals', 'truncated', 'rows', 'by_key', 'by_endpoint', 'by_day'],
        properties: {
          from: { ...DAY, type: ['string', 'null'] },
          to: { ...DAY, type: ['string', 'null'] },
          total: { ...requests, description: 'Requests matching the filters' },
          totals: { type: 'object', description: 'Every figure summed over the matching rows', required: FIGURE_NAMES, properties: FIGURES },
          truncated: { type: 'boolean', description: 'More rows matched than limit' },
          rows: {
            type: 'array',
            description: 'Newest day first',
            items: {
              type: 'object',
              required: ['key_id', 'endpoint', 'day', 'requests', ...FIGURE_NAMES],
              properties: { key_id: { type: 'string' }, endpoint: { type: 'string' }, day: DAY, requests, ...FIGURES },
            },
          },
          by_key: {
            type: 'array',
            items: { type: 'object', required: ['key_id', 'tier', 'label', 'requests', ...FIGURE_NAMES], properties: { ...keyFields, requests, ...FIGURES } },
          },
          by_endpoint: {
            type: 'array',
            items: { type: 'object', required: ['endpoint', 'requests', ...FIGURE_NAMES], properties: { endpoint: { type: 'string' }, requests, ...FIGURES } },
          },
          by_day: { type: 'array', items: { type: 'object', required: ['day', 'requests', ...FIGURE_NAMES], properties: { day: DAY, requests, ...FIGURES } } },
        },
      },
      async handle({ query }) {
        const filter = query as { key?: string; endpoint?: string; from?: string; to?: string; limit: number; format: 'json' | 'csv' };
        if (filter.from && filter.to && filter.from > filter.to) throw invalidParameter('to', `must not be before from (${filter.from})`);
        // this instance's waiting counts first; other instances' arrive within their flush interval (about a second)
        await usage.flush();
        const [report, keys] = await Promise.all([usage.report({ ...filter, keyId: filter.key }), store.list()]);
        if (filter.format === 'csv') {
          const lines = report.rows.map((r) => {
            const figures = figuresOf(r);
            return csvLine([r.day, r.keyId, r.endpoint, r.count, ...FIGURE_NAMES.map((f) => figures[f])]);
          });
          return {
            type: 'binary',
            contentType: 'text/csv; charset=utf-8; header=present',
            filename: `usage-${filter.from ?? 'start'}-${filter.to ?? 'today'}.csv`,
            // a spreadsheet cannot tell a cut list from a whole one: say so where a script can see it
            headers: { 'X-Usage-Truncated': String(report.truncated) },
            body: Buffer.from([csvLine(CSV_COLUMNS), ...lines].join('')),
          };
        }
        const byId = new Map(keys.map((k) => [k.id, k]));
        const keyOf = (keyId: string) =>
          keyId === TEST_KEY_ID ? { tier: 'test', label: null } : { tier: byId.get(keyId)?.tier ?? null, label: byId.get(keyId)?.label ?? null };
        return json({
          from: filter.from ?? null,
          to: filter.to ?? null,
          total: report.total,
          totals: figuresOf(report.sums),
          truncated: report.truncated,
          rows: report.rows.map((r) => ({ key_id: r.keyId, endpoint: r.endpoint, day: r.day, requests: r.count, ...figuresOf(r) })),
          by_key: report.byKey.map((r) => ({ key_id: r.keyId, ...keyOf(r.keyId), requests: r.count, ...figuresOf(r) })),
          by_endpoint: report.byEndpoint.map((r) => ({ endpoint: r.endpoint, requests: r.count, ...figuresOf(r) })),
          by_day: report.byDay.map((r) => ({ day: r.day, requests: r.count, ...figuresOf(r) })),
        });
      },
    }),
  ];
}

/**
 * One CSV record (RFC 4180): a field holding a comma, quote, CR or LF is quoted with its
 * quotes doubled; records end in CRLF. A text field starting with = + - @ or a tab gets a
 * leading quote mark so a spreadsheet shows it rather than running it as a formula.
 */
export function csvLine(fields: readonly (string | number)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(field: string | number): string {
  if (typeof field === 'number') return String(field);
  const text = /^[=+\-@\t\r]/.test(field) ? `'${field}` : field;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
