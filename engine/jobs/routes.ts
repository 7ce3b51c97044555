import { json } from '../adapters/types.js';
import { notFound } from '../errors.js';
import { builtin, type Builtin } from '../pipeline/builtin.js';
import type { JobRecord, JobStore } from './store.js';

export const JOBS_PATH = '/api/jobs';

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
    status: { enum: ['queued', 'active', 'completed', 'failed'] },
    progress: { type: 'integer', minimum: 0, maximum: 100 },
    stage: { type: 'string', description: 'What the job is doing now (e.g. downloading, converting), when its endpoint reports it' },
    result: { description: 'When completed: exactly what the synchronous call puts in `result`' },
    error: { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: 'string', format: 'date-time' },
    finished_at: { type: 'string', format: 'date-time' },
  },
};

export function jobBuiltins(store: JobStore): Builtin[] {
  return [
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
  ];
}
