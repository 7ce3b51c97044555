import { json } from '../../contract/call.js';
import { notFound } from '../../core/errors.js';
import { builtin, type Builtin } from '../builtin.js';
import { JOB_STATUSES, type JobRecord, type JobStatus, type JobStore } from './store.js';

export const JOBS_PATH = '/api/jobs';
export const ADMIN_JOBS_PATH = '/api/admin/jobs';
export const MAX_JOBS_PAGE = 100;

/** Where a job is reported: the `status_url` of its 202. */
export const jobUrl = (publicBaseUrl: string, id: string) => `${publicBaseUrl}${JOBS_PATH}/${id}`;

/** The contract's view of a job (`GET /api/jobs/:id`): snake_case, never the owner key or the params. */
export function jobView(job: JobRecord) {
  return {
    job_id: job.id,
    endpoint: job.endpoint,
    status: job.status,
    progress: job.progress,
    ...(job.stage !== null && { stage: job.stage }),
    ...(job.status === 'completed' && { result: job.result }),
    ...(job.error && { error: { error: job.error.error, message: job.error.message } }),
    created_at: job.createdAt,
    ...(job.startedAt !== null && { started_at: job.startedAt }),
    ...(job.finishedAt !== null && { finished_at: job.finishedAt }),
  };
}

const JOB_SCHEMA = {
  type: 'object',
  required: ['job_id', 'status', 'progress', 'created_at'],
  properties: {
    job_id: { type: 'string' },
    endpoint: { type: 'string', description: 'The endpoint the job runs, `METHOD path`' },
    status: { enum: JOB_STATUSES },
    progress: { type: 'integer', minimum: 0, maximum: 100 },
    stage: { type: 'string', description: 'What the job is doing now (e.g. downloading, converting), when its endpoint reports it' },
    result: { description: 'When completed: exactly what the synchronous call puts in `result`' },
    error: { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: 'string', format: 'date-time' },
    finished_at: { type: 'string', format: 'date-time' },
  },
};

/** A job as the admin routes show it: with the key it belongs to. */
const ADMIN_JOB_SCHEMA = { ...JOB_SCHEMA, required: [...JOB_SCHEMA.required, 'key_id'], properties: { key_id: { type: 'string' }, ...JOB_SCHEMA.properties } };
const adminJobView = (job: JobRecord) => ({ key_id: job.keyId, ...jobView(job) });

/** The paging and filter parameters both listings take. */
const LIST_QUERY = {
  status: { description: 'Only jobs in this status', schema: { enum: JOB_STATUSES } },
  limit: { description: 'Most jobs on the page', schema: { type: 'integer', minimum: 1, maximum: MAX_JOBS_PAGE, default: 20 } },
  cursor: {
    description: 'The `next_cursor` of the previous page: the jobs older than its last one',
    schema: { type: 'string', pattern: '^[0-9a-z]{26}$', description: 'a job id' },
  },
};

const pageSchema = (item: Record<string, unknown>) => ({
  type: 'object',
  required: ['jobs', 'next_cursor'],
  properties: {
    jobs: { type: 'array', description: 'Newest first', items: item },
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page' },
  },
});

type ListQuery = { status?: JobStatus; limit: number; cursor?: string };

/** One page of jobs as both listings answer it; the cursor is the last job's id (store.list). */
async function page(store: JobStore, query: ListQuery, keyId: string | undefined, view: (job: JobRecord) => object) {
  const { jobs, more } = await store.list({ keyId, status: query.status, after: query.cursor, limit: query.limit });
  return json({ jobs: jobs.map(view), next_cursor: more ? jobs[jobs.length - 1].id : null });
}

/** What the job routes use of the jobs feature (service.ts's Jobs; named here, as service.ts imports this module). */
export interface JobRoutesDeps {
  store: JobStore;
  /** Cancel a job of `keyId` (any job when undefined); 404 absent, 409 job_finished. */
  cancel(id: string, keyId?: string): Promise<JobRecord>;
}

const CANCEL_SUMMARY =
  'Cancel a queued or running job: a queued one leaves the queue, a running one stops its work and frees its slot; it is then `cancelled` (its webhook says so). 409 job_finished when it has already finished';

export function jobBuiltins(jobs: JobRoutesDeps): Builtin[] {
  const { store } = jobs;
  return [
    builtin({
      method: 'GET',
      path: JOBS_PATH,
      auth: 'key',
      summary: 'The async jobs of the calling key, newest first, paged (limit, cursor), filterable by status',
      query: LIST_QUERY,
      result: pageSchema(JOB_SCHEMA),
      handle: ({ query, principal }) => page(store, query as ListQuery, principal!.keyId, jobView),
    }),
    builtin({
      method: 'GET',
      path: ADMIN_JOBS_PATH,
      auth: 'admin',
      summary: "Every key's async jobs, newest first, paged (limit, cursor), filterable by status and key",
      query: {
        ...LIST_QUERY,
        key: { description: 'Only this key id (as GET /api/admin/keys lists it; `test` is the shared test key)', schema: { type: 'string', maxLength: 200 } },
      },
      result: pageSchema(ADMIN_JOB_SCHEMA),
      handle: ({ query }) => page(store, query as ListQuery, (query as { key?: string }).key, adminJobView),
    }),
    builtin({
      method: 'GET',
      path: `${JOBS_PATH}/:id`,
      auth: 'key',
      summary: 'An async job of the calling key (async=true on a long-running endpoint): status, progress, and its result or error',
      result: JOB_SCHEMA,
      async handle({ pathParams, principal }) {
        // another key's job answers exactly as an unknown id does: ids are not an oracle
        const job = await store.get(pathParams.id, principal!.keyId);
        if (!job) throw notFound(`No job ${pathParams.id} for this API key`);
        return json(jobView(job));
      },
    }),
    builtin({
      method: 'POST',
      path: `${JOBS_PATH}/:id/cancel`,
      auth: 'key',
      summary: `${CANCEL_SUMMARY}. Another key's job answers 404, as an unknown id does`,
      result: JOB_SCHEMA,
      errors: [404, 409],
      handle: async ({ pathParams, principal }) => json(jobView(await jobs.cancel(pathParams.id, principal!.keyId))),
    }),
    builtin({
      method: 'POST',
      path: `${ADMIN_JOBS_PATH}/:id/cancel`,
      auth: 'admin',
      summary: `${CANCEL_SUMMARY}. Any key's job`,
      result: ADMIN_JOB_SCHEMA,
      errors: [404, 409],
      handle: async ({ pathParams }) => json(adminJobView(await jobs.cancel(pathParams.id))),
    }),
  ];
}
