import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in OpenAI-compatible server for the AI tests: it records each request body
 * and answers with whatever the test's handler writes.
 */
export interface FakeOpenAi {
  baseUrl: string;
  bodies: any[];
}

export type Reply = (body: any, res: http.ServerResponse) => void;

export async function fakeOpenAi(t: { teardown(fn: () => unknown): void }, reply: Reply): Promise<FakeOpenAi> {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      bodies.push(body);
      reply(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

export const completion = (content: string) =>
  JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });

export const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
