import { api, core, NodeSDK, type tracing } from '@opentelemetry/sdk-node';
import type { Context } from 'koa';
import { API_VERSION, type Config } from '../config.js';
import type { Logger } from '../log.js';
import { otlpTarget, type OtlpTarget } from './otlp-target.js';
import type { RequestAnswer, RequestSpan, RequestTracing } from './request-span.js';

/**
 * The OpenTelemetry Node SDK, started when tracing is on (tracing.ts decides): traces
 * only (no OTLP metrics or logs: /metrics and the JSON log carry those), exported over
 * OTLP to the host's collector, one server span per request made by the request
 * pipeline, the caller's W3C `traceparent` continued. The SDK is process-wide (it
 * registers the global tracer provider): engines in one process share it, and the last
 * one to close shuts it down, exporting what is buffered.
 */

interface Started {
  sdk: NodeSDK;
  users: number;
}
let started: Started | undefined;

export async function startOtel(env: Config['env'], logger: Logger): Promise<RequestTracing> {
  if (!started) {
    const target = otlpTarget(env);
    const sdk = new NodeSDK({
      serviceName: env.OTEL_SERVICE_NAME ?? 'manifold',
      traceExporter: await exporterFor(target),
      // traces only: without these the SDK would also start OTLP metric and log exporters
      metricReaders: [],
      logRecordProcessors: [],
      instrumentations: [],
    });
    sdk.start();
    started = { sdk, users: 0 };
    // the address only: OTEL_EXPORTER_OTLP_HEADERS may carry a collector's token
    logger.info({ msg: 'tracing on', protocol: target.protocol, endpoint: new URL(target.url).origin });
  }
  const own = started;
  own.users++;
  let closed = false;
  return {
    start: startSpan,
    async close() {
      if (closed) return;
      closed = true;
      if (--own.users > 0) return;
      if (started === own) started = undefined;
      await own.sdk.shutdown();
    },
  };
}

async function exporterFor({ protocol, url, headers }: OtlpTarget): Promise<tracing.SpanExporter> {
  const parsed = core.parseKeyPairsIntoRecord(headers);
  if (protocol === 'grpc') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
    return new OTLPTraceExporter({ url });
  }
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url, headers: parsed });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url, headers: parsed });
}

const tracer = () => api.trace.getTracer('manifold', API_VERSION);
const USER_AGENT_MAX = 256;

function startSpan(ctx: Context): RequestSpan {
  const parent = api.propagation.extract(api.ROOT_CONTEXT, ctx.headers);
  const method = ctx.method;
  const span = tracer().startSpan(
    method,
    {
      kind: api.SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        // the path only: a query may hold a key
        'url.path': ctx.path,
        'user_agent.original': (ctx.get('User-Agent') || '').slice(0, USER_AGENT_MAX),
      },
    },
    parent,
  );
  const inside = api.trace.setSpan(parent, span);
  return {
    run: (next) => api.context.with(inside, next),
    get traceId() {
      return span.spanContext().traceId;
    },
    end({ status, route, clientIp }: RequestAnswer) {
      // named by the route template (bounded), as the HTTP semantic conventions ask
      if (route) span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.response.status_code': status, 'client.address': clientIp, ...(route ? { 'http.route': route } : {}) });
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
  };
}
