import type { Context } from 'koa';
import { Stream, type Readable } from 'node:stream';
import type { Metered } from '../contract/call.js';
import type { Principal } from '../platform/auth/authenticate.js';
import type { UsageCounter, Work } from '../platform/db/usage.js';
import type { EngineMetrics, RequestLabels } from '../platform/metrics/metrics.js';
import { UNMATCHED } from '../platform/metrics/metrics.js';

/**
 * What an answer cost, for billing (GET /api/admin/usage) and Prometheus: its status
 * class, the response body bytes sent, and the AI tokens and media seconds its adapter
 * reported (Call.meter). Read when the status is final (requestContext's finally); a streamed
 * body is measured as Koa pipes it to the socket and reported when the response
 * closes, so an answer cut short counts the bytes that went out, not its declared length.
 */
/** Statuses whose answers carry no body (Koa sends none for them). */
const EMPTY = new Set([204, 205, 304]);

/** Add what the adapter reported (AI tokens, media seconds) to the request's tally (AdapterCall.meter). */
export function addWork(ctx: Context, metered: Metered): void {
  tallyWork((ctx.state.work as Work | undefined) ?? (ctx.state.work = {}), metered);
}

/** Add `metered` (Call.meter's units) to `tally` (the usage counter's): the one conversion, for requests and jobs alike. */
export function tallyWork(tally: Work, metered: Metered): void {
  if (metered.prompt) tally.promptTokens = (tally.promptTokens ?? 0) + metered.prompt;
  if (metered.completion) tally.completionTokens = (tally.completionTokens ?? 0) + metered.completion;
  if (metered.mediaSeconds) tally.mediaMs = (tally.mediaMs ?? 0) + Math.round(metered.mediaSeconds * 1000);
}

/** Mark the request as counted for `keyId` on `route` (pipeline/admit.ts): its answer's figures are added to the same entry. */
export function countedAs(ctx: Context, route: string): void {
  ctx.state.usageRoute = route;
}

/** Report the answer's figures once its body is known or, when streamed, has gone out. */
export function meterAnswer(ctx: Context, usage: UsageCounter | undefined, metrics: EngineMetrics | undefined): void {
  if (!metrics && !(usage && ctx.state.usageRoute !== undefined && ctx.state.principal !== undefined)) return;
  const status = ctx.status;
  const { body } = ctx;
  if (ctx.method === 'HEAD' || EMPTY.has(status) || body == null) return report(ctx, usage, metrics, status, 0);
  // any stream Koa would pipe (it tests for Stream, not Readable): never serialised below
  if (body instanceof Stream) {
    // a client already gone gets nothing piped, and its response's close has passed
    if (ctx.res.destroyed) return report(ctx, usage, metrics, status, 0);
    // Koa pipes the body after every middleware is done: its chunks are counted from then on
    let bytes = 0;
    ctx.res.once('pipe', (source: Readable) =>
      source.on('data', (chunk: Buffer | string) => (bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length)),
    );
    ctx.res.once('close', () => report(ctx, usage, metrics, status, bytes));
    return;
  }
  if (Buffer.isBuffer(body)) return report(ctx, usage, metrics, status, body.length);
  if (typeof body === 'string') return report(ctx, usage, metrics, status, Buffer.byteLength(body));
  const text = JSON.stringify(body);
  // a plain object or list (error envelopes, 202 job receipts), which Koa would serialise again
  // to send it: Koa sends this text instead (its type stays JSON), so it is serialised once
  if (isPlainJson(body)) ctx.body = text;
  report(ctx, usage, metrics, status, Buffer.byteLength(text));
}

/** Add one answer's figures to the metrics and, for a request counted for a key, to its usage. */
function report(ctx: Context, usage: UsageCounter | undefined, metrics: EngineMetrics | undefined, status: number, bytesOut: number): void {
  const route = ctx.state.usageRoute as string | undefined;
  const principal = ctx.state.principal as Principal | undefined;
  // read now, not before: a streamed AI answer's tokens arrive with its last chunk
  const work = ctx.state.work as Work | undefined;
  const labels = (ctx.state.metricLabels as RequestLabels | undefined) ?? UNMATCHED;
  metrics?.answerFigures(labels, principal?.tier ?? 'none', bytesOut, work);
  if (route !== undefined && principal !== undefined && usage) usage.answered(principal.keyId, route, { status, bytesOut, ...work });
}

function isPlainJson(body: object): boolean {
  const proto: unknown = Object.getPrototypeOf(body);
  return Array.isArray(body) || proto === Object.prototype || proto === null;
}
