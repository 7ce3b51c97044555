import t from 'tap';
import { code } from '../../engine/kinds/adapters/code.js';
import { UpstreamRegistry } from '../../engine/catalog/upstreams.js';
import type { AdapterSetup } from '../../engine/contract/call.js';

/** `upstreams` on a code endpoint: available when any one of them is configured. */
const specs = [
  { name: 'keyed', description: 'x', baseUrl: { env: 'KEYED_URL', default: 'https://keyed.example' }, requires: ['KEYED_KEY'] },
  { name: 'hosted', description: 'x', baseUrl: { env: 'HOSTED_URL' } },
];
const setup = (env: Record<string, string>) => ({ upstreams: new UpstreamRegistry(specs, env) }) as unknown as AdapterSetup;
const config = { handler: 'tools/removebg', upstreams: ['keyed', 'hosted'] };

t.equal(code.unavailable!(config, setup({ KEYED_KEY: 'k' })), undefined, 'the first configured');
t.equal(code.unavailable!(config, setup({ HOSTED_URL: 'http://h' })), undefined, 'the second configured');
t.equal(code.unavailable!(config, setup({})), 'keyed: KEYED_KEY not set; hosted: HOSTED_URL not set', 'neither: both reasons');
t.equal(code.unavailable!({ ...config, upstreams: ['nope'] }, setup({})), 'unknown upstream nope');
t.equal(code.unavailable!({ handler: 'tools/reverse' }, setup({})), undefined, 'no upstreams: always available');

/** `{ name, bin }`: an upstream usable only with its executables (AcoustID needs fpcalc), found by PATH or their *_PATH variable. */
const withConfig = (env: Record<string, string>) => ({ upstreams: new UpstreamRegistry(specs, env), config: { env } }) as unknown as AdapterSetup;
const binConfig = { handler: 'search/shazam', upstreams: [{ name: 'keyed', bin: ['sh'] }, 'hosted'] };
t.equal(code.unavailable!(binConfig, withConfig({ KEYED_KEY: 'k', PATH: process.env.PATH ?? '' })), undefined, 'configured and its executable installed');
t.equal(
  code.unavailable!(binConfig, withConfig({ KEYED_KEY: 'k', SH_PATH: '/nonexistent/sh' })),
  'keyed: sh not installed; hosted: HOSTED_URL not set',
  'configured, its executable missing: unavailable, naming it',
);
t.equal(code.unavailable!(binConfig, withConfig({ SH_PATH: '/nonexistent/sh', HOSTED_URL: 'http://h' })), undefined, 'another upstream serves without it');
t.equal(code.unavailable!(binConfig, withConfig({})), 'keyed: KEYED_KEY not set; hosted: HOSTED_URL not set', 'an unset key is named before the executable');
