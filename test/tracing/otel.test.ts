/**
 * OpenTelemetry (engine/platform/tracing): with OTEL_EXPORTER_OTLP_ENDPOINT set, each request is a
 * server span exported over OTLP/HTTP; here to a local receiver standing in for a
 * collector, which is told the span once the engine closes (the SDK exports what it
 * buffered at shutdown). Off by default: the SDK is not even loaded (test/engine/boot.test.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { otlpTarget } from '../../engine/platform/tracing/otlp-target.js';
import { tracingEnabled } from '../../engine/platform/tracing/tracing.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

t.test('off unless an OTLP endpoint is set; a bad protocol or endpoint stops the boot naming the variable', async (t) => {
  t.equal(tracingEnabled({}), false);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), true);
  t.equal(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }), false);
  t.same(otlpTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }), {
    protocol: 'http/protobuf',
    url: 'http://collector:4318/v1/traces',
    headers: undefined,
  });
  t.equal(otlpTarget({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }).url, 'http://c:4318/custom');
  t.equal(otlpTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).url, 'http://c:4317');
  t.throws(() => otlpTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' }), /OTEL_EXPORTER_OTLP_PROTOCOL must be one of/);
  t.throws(() => otlpTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
});

t.test("a request becomes a server span at the collector, continuing the caller's trace", async (t) => {
  // the stand-in collector: OTLP/HTTP with JSON bodies, as OTEL_EXPORTER_OTLP_PROTOCOL=http/json sends them
  const received: OtlpExport[] = [];
  let arrived: () => void;
  const exported = new Promise<void>((resolve) => (arrived = resolve));
  const collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        received.push(JSON.parse(body));
        arrived();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  t.teardown(() => collector.close());
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

  const served = await serve(
    { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'manifold-under-test' },
    { endpoints: testEndpoints().endpoints },
  );
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpan = '00f067aa0ba902b7';
  // the SDK loads in the background at boot; the first request waits for it (request-context.ts)
  const res = await fetch(`${served.url}/api/test/one?text=hi&apikey=${TEST_KEY}`, {
    headers: { traceparent: `00-${traceId}-${callerSpan}-01`, 'User-Agent': 'otel-test/1' },
  });
  t.equal(res.status, 200);
  await served.close(); // the SDK exports what it buffered as the engine shuts down
  await exported;

  const spans = received.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
  const span = spans.find((s) => s.name === 'GET /api/test/one');
  t.ok(span, `a span named by the route (got ${spans.map((s) => s.name).join(', ')})`);
  t.equal(span!.traceId, traceId, "the caller's trace");
  t.equal(span!.parentSpanId, callerSpan, "a child of the caller's span");
  t.equal(span!.kind, 2, 'SPAN_KIND_SERVER');
  const attribute = (key: string) => {
    const value = span!.attributes.find((a) => a.key === key)?.value;
    return value && Object.values(value)[0];
  };
  t.equal(attribute('http.route'), '/api/test/one');
  t.equal(Number(attribute('http.response.status_code')), 200);
  t.equal(attribute('url.path'), '/api/test/one', 'the path, never the query with its key');
  t.equal(attribute('client.address'), '127.0.0.1');
  t.equal(attribute('user_agent.original'), 'otel-test/1');
  const service = received[0]!.resourceSpans[0]!.resource.attributes.find((a) => a.key === 'service.name');
  t.equal(service?.value.stringValue, 'manifold-under-test');
  t.notOk(JSON.stringify(received).includes(TEST_KEY), 'no key reaches the collector');
});

t.test('the configuration refuses a bad OTLP setting at boot', async (t) => {
  const { createEngine } = await import('../../engine/app/app.js');
  t.throws(
    () => createEngine({ config: loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'udp' }), endpoints: [] }),
    /OTEL_EXPORTER_OTLP_PROTOCOL/,
  );
});
