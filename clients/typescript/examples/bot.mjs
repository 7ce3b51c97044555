// A bot's calls to Manifold from plain JavaScript, as an ES module (`node bot.mjs`).
// MANIFOLD_URL and MANIFOLD_API_KEY say which server and key; the defaults are a local
// server and its shared test key (30 requests a minute).
import { createManifoldClient } from '@manifold/client';

const api = createManifoldClient({
  baseUrl: process.env.MANIFOLD_URL ?? 'http://localhost:3000',
  apiKey: process.env.MANIFOLD_API_KEY ?? 'manifold-test', // sent as X-API-Key, never in the URL
});

// Every answer is { data, error, response }: data is the success envelope, error the error envelope.
const quote = await api.GET('/api/fun/quote', { params: { query: { tag: 'inspirational' } } });
if (quote.error) console.log(`quote failed: ${quote.error.error} (${quote.error.message})`);
else console.log(`quote: "${quote.data.result.quote}" — ${quote.data.result.author}`);

const reversed = await api.GET('/api/tools/reverse', { params: { query: { text: 'hello bot' } } });
console.log(`reverse: ${reversed.data?.result ?? reversed.error?.error}`);

// A request the server refuses: the error envelope names what was wrong and the status says how.
const refused = await api.GET('/api/tools/reverse', { params: { query: {} } });
console.log(`without text: ${refused.response.status} ${refused.error?.error}`);
