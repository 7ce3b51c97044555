import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { compare, readDescriptions } from '../../scripts/settings/catalog.js';
import { ENV_EXAMPLE, SETTINGS_DOC, generate } from '../../scripts/settings/generate.js';
import { scanVariables } from '../../scripts/settings/scan-variables.js';

/**
 * The settings reference against the code: every variable read is described in
 * engine/platform/settings/variables.yaml, every row there is read, and docs/operating/settings.md and
 * .env.example are what `npm run settings:docs` writes from them now.
 */
const uses = scanVariables();
const descriptions = readDescriptions();

t.test('every variable the code reads is described, and every description is of a variable read', async (t) => {
  const { undescribed, unread } = compare(uses, descriptions);
  t.same(undescribed, [], 'read but not described: add a row to engine/platform/settings/variables.yaml');
  t.same(unread, [], 'described but read nowhere: remove the row from engine/platform/settings/variables.yaml (or say which library reads it: readBy)');
});

t.test('the scanner finds each way a variable is read', async (t) => {
  const expect: Record<string, RegExp> = {
    PORT: /engine\/platform\/config\.ts/, // env.X and a settings parser
    JOBS_LOCK_MS: /engine\/pipeline\/jobs\/settings\.ts/, // positiveInt(env, 'X', …)
    AWS_ACCESS_KEY_ID: /engine\/platform\/storage\/s3-files\.ts/, // const { X: x } = env
    OTEL_EXPORTER_OTLP_PROTOCOL: /engine\/platform\/tracing\/otlp-target\.ts/, // env[variable], the names quoted
    METRICS_TOKEN: /engine\/pipeline\/routes\/metrics\.ts/, // config.env.X
    ENV_FILE: /scripts\/env-file\.mjs/, // plain JavaScript
    MAIL_DOMAIN: /endpoints\/tempgen\//, // a manifest's requires.env
    OPENAI_MODEL: /endpoints\/ai\//, // ${env.X} in an adapter config
    ACOUSTID_API_KEY: /endpoints\/upstreams\/acoustid\.yaml/, // an upstream's requires
    ANIMECHAN_API_KEY: /endpoints\/upstreams\/animechan\.yaml/, // ${X} in an upstream's headers
    DNS_SERVERS: /endpoints\/upstreams\/dns\.yaml/, // a dns upstream's servers
    ACOUSTID_URL: /endpoints\/upstreams\/acoustid\.yaml/, // an upstream's base URL
    FFMPEG_PATH: /endpoints\/download\//, // requires.bin: the executable's override
    FPCALC_PATH: /engine\/features\/songid\/fingerprint\.ts/, // binaryPath('fpcalc', env)
  };
  for (const [name, where] of Object.entries(expect)) t.match(uses.get(name)?.readBy.join(' '), where, name);
  t.equal(uses.get('ACOUSTID_URL')?.upstreamUrl?.upstream, 'acoustid');
  t.equal(uses.get('FFMPEG_PATH')?.binary, 'ffmpeg');
  t.notOk(uses.has('PATH'), "the system's PATH is no setting");
  t.notOk(uses.has('ENOENT'), 'error codes quoted beside a dynamic read are not variables');
  t.ok(uses.size > 200, `${uses.size} variables`);
});

t.test('docs/operating/settings.md and .env.example are up to date', async (t) => {
  const generated = generate();
  const stale = 'stale: run `npm run settings:docs` and commit the result';
  t.equal(fs.readFileSync(SETTINGS_DOC, 'utf8'), generated.doc, `${path.basename(SETTINGS_DOC)} ${stale}`);
  t.equal(fs.readFileSync(ENV_EXAMPLE, 'utf8'), generated.envExample, `${path.basename(ENV_EXAMPLE)} ${stale}`);
  // what the reference says an endpoint needs, checked against what the manifests say
  t.match(generated.doc, /\| `FFMPEG_PATH` \|[^\n]*needed by \d+: [^\n]*`download\/aio`/, 'ffmpeg is needed by the downloaders');
  t.match(generated.doc, /\| `ACOUSTID_API_KEY` \|[^\n]*one way to enable 1 \(with `FPCALC_PATH`\): `search\/shazam`/, 'AcoustID needs fpcalc beside it');
  t.match(generated.doc, /\| `OPENROUTER_API_KEY` \|[^\n]*one way to enable \d+: [^\n]*`ai\/claude`/, 'one provider among several');
  t.match(generated.envExample, /^# ADMIN_TOKEN=$/m, 'secrets are left blank');
  t.match(generated.envExample, /^# PORT=3000$/m, 'the rest at their defaults');
});
