import { useEffect, useState } from 'preact/hooks';
import { ColumnHeads } from './column-heads.js';
import { fetchPublic } from './api.js';
import { bytes, count, time } from './format.js';
import { ErrorMessage, PageHeading } from './page-heading.js';
import type { DependencyCheck } from './types.js';

/** GET /health/ready: 200 with every check, or 503 not_ready with the failed ones in details. */
type Ready =
  | { status: 'ready'; checks: Record<string, DependencyCheck> }
  | { error: string; message: string; details?: { dependency: string; problem: string; ms: number }[] };

interface Health {
  version: string;
  endpoints: number;
  uptime: number;
  /** null until the janitor's first measure (a fresh instance) */
  storage: (Record<string, { files: number; bytes: number } | unknown> & { measured_at?: string }) | null;
  ytdlp?: { path?: string; version?: string; age_days?: number; warning?: string };
}

interface Row {
  dependency: string;
  ok: boolean;
  ms: number;
  problem?: string;
}

/** The rows of a readiness answer: a ready one lists every check, a 503 only those that failed. */
function rows(ready: Ready): Row[] {
  if ('checks' in ready) return Object.entries(ready.checks).map(([dependency, c]) => ({ dependency, ok: c.ok, ms: c.ms, problem: c.error }));
  return (ready.details ?? []).map((d) => ({ dependency: d.dependency, ok: false, ms: d.ms, problem: d.problem }));
}

const STORAGE_CLASSES = ['uploads', 'generated', 'media_cache', 'temp'];

/** Health: each dependency's readiness check (database, Redis, S3, job queue), and the instance's version, storage and yt-dlp. */
export function HealthPage({ title }: { title: string }) {
  const [ready, setReady] = useState<{ status: number; body: Ready } | undefined>();
  const [health, setHealth] = useState<Health | undefined>();
  const [error, setError] = useState<unknown>();
  const load = () => {
    fetchPublic<Ready>('/health/ready').then(setReady, setError);
    fetchPublic<Health>('/health').then((r) => setHealth(r.body), setError);
  };
  useEffect(load, []);

  return (
    <>
      <PageHeading title={title}>
        <button type="button" class="quiet" onClick={load}>
          Check again
        </button>
      </PageHeading>
      <ErrorMessage error={error} />
      {ready && (
        <section aria-labelledby="health-deps">
          <h2 id="health-deps">Dependencies</h2>
          <p role="status" class={ready.status === 200 ? 'ok' : 'error'}>
            {ready.status === 200
              ? 'Ready: every configured dependency answers.'
              : `Not ready (${ready.status}): ${'message' in ready.body ? ready.body.message : ''}`}
          </p>
          <div class="table-wrap">
            <table id="health-table">
              <ColumnHeads columns={['Dependency', 'State', 'Check took', 'Problem']} />
              <tbody>
                {rows(ready.body).map((r) => (
                  <tr key={r.dependency}>
                    <th scope="row">{r.dependency}</th>
                    <td>
                      <span class={`badge ${r.ok ? 'active' : 'failed'}`}>{r.ok ? 'up' : 'down'}</span>
                    </td>
                    <td>{r.ms} ms</td>
                    <td>{r.problem ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="help">
            Only the dependencies this instance is configured for are checked (Redis with <code>REDIS_URL</code>, S3 with its bucket, the queue with Redis); a
            503 lists the ones that failed.
          </p>
        </section>
      )}
      {health && (
        <section aria-labelledby="health-instance">
          <h2 id="health-instance">This instance</h2>
          <dl class="facts">
            <dt>Version</dt>
            <dd>{health.version}</dd>
            <dt>Endpoints</dt>
            <dd>{count(health.endpoints)}</dd>
            <dt>Up for</dt>
            <dd>{duration(health.uptime)}</dd>
            <dt>yt-dlp</dt>
            <dd>
              {health.ytdlp?.version ?? 'not found'}
              {health.ytdlp?.warning && <p class="warning">{health.ytdlp.warning}</p>}
            </dd>
            {STORAGE_CLASSES.filter((c) => health.storage?.[c]).map((c) => {
              const s = health.storage![c] as { files: number; bytes: number };
              return [<dt key={`${c}-t`}>Stored {c.replace('_', ' ')}</dt>, <dd key={`${c}-d`}>{`${count(s.files)} files, ${bytes(s.bytes)}`}</dd>];
            })}
          </dl>
          {health.storage?.measured_at ? (
            <p class="help">Storage as measured at {time(health.storage.measured_at)}.</p>
          ) : (
            <p class="help">Storage not measured yet (the first measure runs shortly after the start).</p>
          )}
        </section>
      )}
    </>
  );
}

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min ${seconds % 60} s`;
}
