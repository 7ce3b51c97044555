import crypto from 'node:crypto';
import got from 'got';
import { guardedAgents, type Agents } from '../../platform/http/agents.js';
import type { SsrfGuard } from '../../platform/http/ssrf-guard.js';
import type { JobRecord } from './store.js';

/**
 * The webhook a finished job sends to its `callback_url` (docs/using/jobs.md, Webhooks):
 * a POST of `{"job_id", "status", "result" | "error"}` as JSON, signed with
 * `X-Manifold-Signature: sha256=<hex HMAC-SHA256 of the raw body, key WEBHOOK_SECRET>`
 * (unsigned when no secret is set). The URL passed the SSRF guard when the job was
 * submitted and passes it again here, at connect time too (the guarded agents), so a
 * host that re-resolves to a private address is refused. Redirects are not followed.
 * A non-2xx answer or a network error throws: the queue retries with backoff.
 * Neither the secret nor the signature is ever logged.
 */
export const SIGNATURE_HEADER = 'X-Manifold-Signature';

export function webhookBody(job: JobRecord): string {
  return JSON.stringify({
    job_id: job.id,
    status: job.status,
    ...(job.status === 'completed' ? { result: job.result } : { error: { error: job.error?.error, message: job.error?.message } }),
  });
}

/** Whose deliveries share a per-receiver limit: the callback URL's origin (scheme, host, port). */
export const receiverOf = (callbackUrl: string): string => new URL(callbackUrl).origin;

/** `sha256=<hex>`: what a receiver recomputes over the raw body with its copy of the secret. */
export const signature = (body: string, secret: string) => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** A delivery that did not get a 2xx; its message names the status or network error, never the URL (it may hold a token). */
export class WebhookFailed extends Error {}

export class WebhookSender {
  readonly #agents: Agents;

  constructor(
    private readonly guard: SsrfGuard,
    private readonly options: { secret?: string; timeoutMs: number; userAgent: string },
  ) {
    this.#agents = guardedAgents(guard.lookup);
  }

  /** One attempt; throws WebhookFailed unless the receiver answered 2xx. */
  async send(job: JobRecord): Promise<void> {
    if (!job.callbackUrl) return;
    await this.guard.checkUrl(job.callbackUrl, 'callback_url');
    const body = webhookBody(job);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': this.options.userAgent };
    if (this.options.secret) headers[SIGNATURE_HEADER] = signature(body, this.options.secret);
    let status: number;
    try {
      const response = await got.post(job.callbackUrl, {
        body,
        headers,
        agent: this.#agents,
        followRedirect: false,
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: this.options.timeoutMs },
      });
      status = response.statusCode;
    } catch (err) {
      throw new WebhookFailed(`webhook of job ${job.id} not delivered: ${(err as { code?: string }).code ?? (err as Error).name}`);
    }
    if (status < 200 || status > 299) throw new WebhookFailed(`webhook of job ${job.id} answered HTTP ${status}`);
  }

  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }
}
