import { useEffect, useState } from 'preact/hooks';
import { ColumnHeads } from '../column-heads.js';
import { api, query } from '../api.js';
import { When } from '../when.js';
import { KeySelect } from '../key-select.js';
import { ErrorMessage, PageHeading } from '../page-heading.js';
import type { Job, JobsPage as Page, KeyRecord } from '../types.js';

const JOBS = '/api/admin/jobs';
const STATUSES = ['queued', 'active', 'completed', 'failed', 'cancelled'];
const PAGE = 50;

/** Jobs: every key's async jobs, newest first, by status and key (GET /api/admin/jobs), a page at a time. */
export function JobsPage({ title }: { title: string }) {
  const [filters, setFilters] = useState({ status: '', key: '' });
  const [jobs, setJobs] = useState<Job[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [keys, setKeys] = useState<KeyRecord[]>([]);
  const [error, setError] = useState<unknown>();
  const [message, setMessage] = useState('');

  const load = async (cursor?: string) => {
    try {
      const page = await api.get<Page>(JOBS + query({ ...filters, limit: PAGE, cursor }));
      setJobs((shown) => (cursor ? [...(shown ?? []), ...page.jobs] : page.jobs));
      setNext(page.next_cursor);
      setError(undefined);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => void api.get<KeyRecord[]>('/api/admin/keys').then(setKeys, setError), []);
  useEffect(() => void load(), [filters]);
  /** POST /api/admin/jobs/:id/cancel: a queued job leaves the queue, a running one stops; the row shows what the server then says. */
  const cancel = async (job: Job) => {
    try {
      const cancelled = await api.post<Job>(`${JOBS}/${encodeURIComponent(job.job_id)}/cancel`);
      setJobs((shown) => shown?.map((j) => (j.job_id === job.job_id ? cancelled : j)));
      setMessage(`Cancelled job ${job.job_id}.`);
      setError(undefined);
    } catch (err) {
      setError(err);
    }
  };
  const keyName = (id: string) => (id === 'test' ? 'shared test key' : (keys.find((k) => k.id === id)?.label ?? id));

  return (
    <>
      <PageHeading title={title}>
        <button type="button" class="quiet" onClick={() => load()}>
          Refresh
        </button>
      </PageHeading>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="jobs-status">Status</label>
          <select id="jobs-status" value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value })}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="jobs-key">Key</label>
          <KeySelect id="jobs-key" value={filters.key} keys={keys} onChange={(key) => setFilters({ ...filters, key })} />
        </div>
      </form>
      <p role="status" class="status">
        {message}
      </p>
      <ErrorMessage error={error} />
      {jobs && jobs.length === 0 && <p>No jobs{filters.status || filters.key ? ' match' : ' yet'}.</p>}
      {jobs && jobs.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Jobs, newest first</caption>
            <ColumnHeads columns={['Job', 'Key', 'Endpoint', 'Status', 'Progress', 'Created', 'Finished', 'Actions']} />
            <tbody>
              {jobs.map((job) => (
                <tr key={job.job_id} data-job-id={job.job_id}>
                  <th scope="row">
                    <code class="id">{job.job_id}</code>
                  </th>
                  <td>{keyName(job.key_id)}</td>
                  <td>
                    <code>{job.endpoint}</code>
                  </td>
                  <td>
                    <span class={`badge ${job.status}`}>{job.status}</span>
                    {job.error && <p class="note">{`${job.error.error}: ${job.error.message}`}</p>}
                  </td>
                  <td>
                    <progress max={100} value={job.progress} aria-label={`Job ${job.job_id} progress`} /> {job.progress}%{job.stage ? ` ${job.stage}` : ''}
                  </td>
                  <td>
                    <When iso={job.created_at} />
                  </td>
                  <td>
                    <When iso={job.finished_at} />
                  </td>
                  <td>
                    {(job.status === 'queued' || job.status === 'active') && (
                      <button type="button" class="small danger" onClick={() => cancel(job)} aria-label={`Cancel job ${job.job_id}`}>
                        Cancel
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button type="button" class="quiet" onClick={() => load(next)}>
          Older jobs
        </button>
      )}
    </>
  );
}
