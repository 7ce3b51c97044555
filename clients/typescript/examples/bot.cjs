// A bot's calls to Manifold from plain JavaScript, as a CommonJS module (`node bot.cjs`),
// as most WhatsApp and Telegram bot frameworks still are. MANIFOLD_URL and MANIFOLD_API_KEY
// say which server and key; the defaults are a local server and its shared test key.
const { createManifoldClient } = require('@manifold/client');

const api = createManifoldClient({
  baseUrl: process.env.MANIFOLD_URL ?? 'http://localhost:3000',
  apiKey: process.env.MANIFOLD_API_KEY ?? 'manifold-test', // sent as X-API-Key, never in the URL
});

async function main() {
  // Every answer is { data, error, response }: data is the success envelope, error the error envelope.
  const pretty = await api.POST('/api/tools/jsonformat', { body: { json: '{"bot":"ready","chats":3}', indent: 2 } });
  if (pretty.error) console.log(`jsonformat failed: ${pretty.error.error} (${pretty.error.message})`);
  else console.log(`jsonformat:\n${pretty.data.result}`);

  const me = await api.GET('/checkapikey');
  console.log(`key tier: ${me.data?.result?.tier ?? me.error?.error}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
