import type { Config } from '../config.js';

/**
 * Where spans go, from the OpenTelemetry exporter variables as the specification names
 * them: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as given) or OTEL_EXPORTER_OTLP_ENDPOINT
 * (`/v1/traces` appended for HTTP), OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL (`http/protobuf`
 * by default, `http/json`, `grpc`) and OTEL_EXPORTER_OTLP_[TRACES_]HEADERS (`k=v,k2=v2`).
 * Read from the engine's configuration, not process.env, like every other setting.
 */
export interface OtlpTarget {
  protocol: OtlpProtocol;
  url: string;
  headers?: string;
}

const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof PROTOCOLS)[number];

/** Throws an Error naming the variable for an unknown protocol or an endpoint that is no http(s) URL. */
export function otlpTarget(env: Config['env']): OtlpTarget {
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable] ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) throw new Error(`${protocolVariable} must be one of ${PROTOCOLS.join(', ')}, got "${protocol}"`);
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const variable = signal ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const raw = signal ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${variable} must be an http(s) URL such as http://collector:4318, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${variable} must be an http(s) URL such as http://collector:4318, got "${raw}"`);
  const base = url.href.replace(/\/+$/, '');
  return {
    protocol: protocol as OtlpProtocol,
    // the signal-specific endpoint is the full URL; the general one is a base the signal's path is added to (not for gRPC)
    url: signal || protocol === 'grpc' ? (signal ?? base) : `${base}/v1/traces`,
    headers: env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS,
  };
}
