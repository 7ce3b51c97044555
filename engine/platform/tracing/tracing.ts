import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { otlpTarget } from './otlp-target.js';
import { missingPackages } from '../../core/packages.js';
import type { RequestTracing } from './request-span.js';

/**
 * OpenTelemetry tracing, on when the host sets OTEL_EXPORTER_OTLP_ENDPOINT (or the
 * traces-only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and off by default. This module
 * imports nothing of OpenTelemetry: the SDK (otel.ts) is loaded only when tracing is
 * on, so a default boot never pays for it.
 */

export type { RequestAnswer, RequestSpan, RequestTracing } from './request-span.js';

/** What otel.ts imports: optional/tracing's packages. */
const TRACING_PACKAGES = [
  '@opentelemetry/sdk-node',
  '@opentelemetry/exporter-trace-otlp-grpc',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
];

/** Whether tracing is on for this environment. OTEL_SDK_DISABLED=true turns it off whatever else is set, as the OpenTelemetry specification says. */
export function tracingEnabled(env: Config['env']): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** Start tracing when it is on (the SDK loads now, in the background); undefined when off. */
export function startTracing(config: Config, logger: Logger): Promise<RequestTracing | undefined> | undefined {
  if (!tracingEnabled(config.env)) return undefined;
  otlpTarget(config.env); // a bad protocol or URL stops the boot, naming the variable
  // the SDK is the optional feature optional/tracing: without it requests go on untraced, and the log says what to install
  const sdk = missingPackages(TRACING_PACKAGES);
  if (sdk) {
    logger.error({ msg: `tracing not started: ${sdk}` });
    return Promise.resolve(undefined);
  }
  return import('./otel.js')
    .then(({ startOtel }) => startOtel(config.env, logger))
    .catch((err: unknown) => {
      // a broken install or a refused exporter must not take the API down with it: requests go on untraced
      logger.error({ msg: 'tracing not started: the OpenTelemetry SDK did not start', err });
      return undefined;
    });
}
