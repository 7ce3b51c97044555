import type { Context } from 'koa';
import type { Output } from '../../contract/call.js';
import type { Principal } from '../../platform/auth/authenticate.js';
import { success } from '../envelope.js';
import { invalidParameter } from '../../core/errors.js';
import type { Endpoint } from '../../core/manifest-types.js';
import { uploadedFiles } from '../body.js';
import { takeJobParams, type Jobs } from './service.js';

/**
 * The request pipeline's step for long-running endpoints, after key, rate limit and
 * params (so a bad request never becomes a job): with `async=true` the call becomes a
 * job and the answer is 202 with its id at once; on an `api` instance a synchronous
 * call also becomes a job, run by a worker and waited for. Otherwise the call runs
 * here, with `async`/`callback_url` removed from its params.
 *
 * Uploaded files live in this instance's temp directory for the request only: a job
 * cannot take them (400 for async=true; a synchronous upload runs here).
 */
export function asJob(
  ctx: Context,
  jobs: Jobs,
  endpoint: Endpoint,
  principal: Principal,
  validated: Record<string, unknown>,
): { params: Record<string, unknown> } | { answer: Promise<Output | undefined> } {
  const { async: wantsAsync, callbackUrl, params } = takeJobParams(validated);
  const uploads = Object.keys(uploadedFiles(ctx)).length > 0;
  if (wantsAsync && uploads) throw invalidParameter('async', 'cannot be used with an uploaded file: give the file by URL, or call without async=true');
  if (wantsAsync) return { answer: accept(ctx, jobs, { endpoint, principal, params, callbackUrl }) };
  if (jobs.remote && !uploads) return { answer: jobs.runRemote({ endpoint, principal, params }) };
  return { params };
}

async function accept(ctx: Context, jobs: Jobs, submission: Parameters<Jobs['submit']>[0]): Promise<undefined> {
  const job = await jobs.submit(submission);
  ctx.status = 202;
  ctx.set('Location', jobs.accepted(job).status_url);
  ctx.body = { ...success(jobs.config, jobs.accepted(job)), status: 202 };
  return undefined;
}
