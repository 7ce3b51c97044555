import t from 'tap';
import { fixesFor, formatUnavailable, groupUnavailable, summarizeUnavailable, variablesOf } from '../../engine/platform/settings/unavailable-summary.js';
import { createEngine } from '../../engine/app/app.js';
import { loadConfig } from '../../engine/platform/config.js';
import { silentLogger } from '../../engine/platform/log.js';
import { tempDataDir } from '../support/serve.js';

t.test('each form of reason the registry gives becomes what would fix it', async (t) => {
  t.same(fixesFor('MAIL_DOMAIN not set'), ['set MAIL_DOMAIN']);
  t.same(fixesFor('SPOTIFY_CLIENT_ID, SPOTIFY_CLIENT_SECRET not set'), ['set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET']);
  t.same(fixesFor('yt-dlp, ffmpeg, ffprobe not installed'), ['install yt-dlp and ffmpeg and ffprobe']);
  t.same(fixesFor('giphy: GIPHY_API_KEY not set'), ['set GIPHY_API_KEY'], "an upstream's name goes");
  t.same(fixesFor('google-cse: GOOGLE_CSE_KEY, GOOGLE_CSE_CX not set; searxng: SEARXNG_URL not set'), [
    'set GOOGLE_CSE_KEY and GOOGLE_CSE_CX',
    'set SEARXNG_URL',
  ]);
  t.same(fixesFor('set YOUTUBE_API_KEY or install yt-dlp (YOUTUBE_API_KEY not set; yt-dlp not installed)'), ['set YOUTUBE_API_KEY', 'install yt-dlp']);
  t.same(
    fixesFor(
      'no provider configured for llama-3.3-70b; it can run on Groq (GROQ_API_KEY not set) or OpenRouter (OPENROUTER_API_KEY not set), or on any OpenAI-compatible gateway at OPENAI_BASE_URL with AI_GATEWAY=1',
    ),
    ['set GROQ_API_KEY', 'set OPENROUTER_API_KEY', 'set OPENAI_BASE_URL and AI_GATEWAY=1'],
  );
  t.same(fixesFor('npm package playwright-core not installed (npm install -w optional/browser)'), ['npm install -w optional/browser'], 'an optional feature');
  t.same(fixesFor('npm packages a, b not installed (npm install -w optional/x -w optional/y)'), ['npm install -w optional/x -w optional/y']);
  t.same(fixesFor('YTDLP_PATH (/opt/yt-dlp) is not an executable'), ['YTDLP_PATH (/opt/yt-dlp) is not an executable'], 'anything else as written');
});

t.test('groups count every endpoint a step enables; the total counts each once', async (t) => {
  const route = (id: string, unavailable?: string) => ({ endpoint: { id }, unavailable });
  const summary = summarizeUnavailable([
    route('GET /api/a/one', 'x: KEY_A not set; y: KEY_B not set'),
    route('GET /api/a/two', 'KEY_A not set'),
    route('GET /api/a/three', 'KEY_A not set'),
    route('GET /api/a/four', 'KEY_A not set'),
    route('GET /api/b/ok'),
  ]);
  t.equal(summary.total, 4);
  t.same(summary.groups, [
    { fix: 'set KEY_A', count: 4, examples: ['a/one', 'a/two', 'a/three'] },
    { fix: 'set KEY_B', count: 1, examples: ['a/one'] },
  ]);
  t.equal(formatUnavailable(summary), 'unavailable: 4 — set KEY_A: 4 (a/one, a/two, a/three, …); set KEY_B: 1 (a/one)');
  t.equal(formatUnavailable(summarizeUnavailable([route('GET /x')])), 'unavailable: 0');
});

t.test('the variables a fix names, and every endpoint under each fix (the console lists them all)', async (t) => {
  t.same(variablesOf('set MAIL_DOMAIN'), ['MAIL_DOMAIN']);
  t.same(variablesOf('set GOOGLE_CSE_KEY and GOOGLE_CSE_CX'), ['GOOGLE_CSE_KEY', 'GOOGLE_CSE_CX']);
  t.same(variablesOf('set OPENAI_BASE_URL and AI_GATEWAY=1'), ['OPENAI_BASE_URL', 'AI_GATEWAY']);
  t.same(variablesOf('install yt-dlp and ffmpeg'), [], 'a tool names no variable');
  t.same(variablesOf('YTDLP_PATH (/opt/yt-dlp) is not an executable'), ['YTDLP_PATH'], 'a reason as written names the variable it starts with');
  const route = (id: string, unavailable?: string) => ({ endpoint: { id }, unavailable });
  const all = groupUnavailable([
    route('GET /api/a/one', 'KEY_A not set'),
    route('GET /api/a/two', 'KEY_A not set'),
    route('GET /api/a/three', 'KEY_A not set'),
    route('GET /api/a/four', 'KEY_A not set; x: tool-b not installed'),
  ]);
  t.equal(all.total, 4);
  t.same(
    all.groups[0],
    {
      fix: 'set KEY_A',
      variables: ['KEY_A'],
      endpoints: [
        { id: 'GET /api/a/one', reason: 'KEY_A not set' },
        { id: 'GET /api/a/two', reason: 'KEY_A not set' },
        { id: 'GET /api/a/three', reason: 'KEY_A not set' },
        { id: 'GET /api/a/four', reason: 'KEY_A not set; x: tool-b not installed' },
      ],
    },
    "all four, past the boot line's three examples",
  );
  t.same(all.groups[1], { fix: 'install tool-b', variables: [], endpoints: [{ id: 'GET /api/a/four', reason: 'KEY_A not set; x: tool-b not installed' }] });
});

t.test("the project's endpoints with nothing set and nothing installed: every reason is understood", async (t) => {
  const engine = createEngine({ config: loadConfig({ PATH: `${t.testdir()}/empty`, DATA_DIR: tempDataDir() }), logger: silentLogger });
  t.teardown(() => engine.close());
  const summary = summarizeUnavailable(engine.registry.routes);
  t.ok(summary.total > 50, `${summary.total} unavailable`);
  const fixes = summary.groups.map((g) => g.fix);
  t.ok(fixes.includes('install yt-dlp and ffmpeg and ffprobe'), 'the downloaders');
  t.ok(fixes.includes('set OPENAI_BASE_URL and AI_GATEWAY=1'), 'the AI gateway');
  t.ok(fixes.includes('set MAIL_DOMAIN'), 'temp mail');
  for (const fix of fixes) t.match(fix, /^(set [A-Z][A-Z0-9_]*( and [A-Z][A-Z0-9_]*)*( and AI_GATEWAY=1)?|install [\w.-]+( and [\w.-]+)*)$/, fix);
});
