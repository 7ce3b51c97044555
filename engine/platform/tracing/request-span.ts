import type { Context } from 'koa';

/** What the request pipeline tells the span of one request when it is answered. */
export interface RequestAnswer {
  status: number;
  /** The matched path template (`/api/download/ytmp3`), never the raw URL; absent for unmatched paths. */
  route?: string;
  clientIp: string;
}

/** One request's span. */
export interface RequestSpan {
  /** Run the rest of the request in the span's context, so spans made further in are its children. */
  run<T>(next: () => Promise<T>): Promise<T>;
  /** The trace this request belongs to, for its access-log line. */
  readonly traceId: string;
  end(answer: RequestAnswer): void;
}

export interface RequestTracing {
  /** A server span for `ctx`, continuing the caller's trace when it sent a `traceparent`. */
  start(ctx: Context): RequestSpan;
  /** Export what is buffered and stop (the engine's close). */
  close(): Promise<void>;
}
