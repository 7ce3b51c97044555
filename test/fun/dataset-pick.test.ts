/**
 * The dataset adapter's `pick`: one random matching item (default) or all matching items in
 * file order with the mapping applied to the list (the football leagues listing), on a data
 * file written for the test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { dataset } from '../../engine/kinds/adapters/dataset.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';
import { adapterCall } from '../support/adapter-call.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-dataset-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(
  path.join(dir, 'leagues.yaml'),
  ['- { slug: epl, region: Europe }', '- { slug: mls, region: Americas }', '- { slug: laliga, region: Europe }'].join('\n'),
);
const setup = { manifestDir: dir, config: { env: {} } } as unknown as AdapterSetup;
const call = adapterCall;

t.test('pick: all returns every matching item in file order, mapped as a list', async (t) => {
  const handler = await dataset.create({ file: 'leagues.yaml', pick: 'all', filter: { region: 'region' }, result: '[].slug' }, setup);
  t.same(await handler(call({})), { type: 'json', result: ['epl', 'mls', 'laliga'] });
  t.same(await handler(call({ region: 'Europe' })), { type: 'json', result: ['epl', 'laliga'] });
  await t.rejects(handler(call({ region: 'Asia' })), { status: 404, code: 'not_found' });
});

t.test('the default still picks one item, among the matching ones', async (t) => {
  const handler = await dataset.create({ file: 'leagues.yaml', filter: { region: 'region' }, result: 'slug' }, setup);
  const seen = new Set<unknown>();
  for (let i = 0; i < 40; i++) seen.add(((await handler(call({ region: 'Europe' }))) as { result: unknown }).result);
  t.same([...seen].sort(), ['epl', 'laliga'], 'only matching items, and more than one of them over 40 picks');
});

t.test('a picked item is mapped and serialised once, then answered as it is', async (t) => {
  fs.writeFileSync(path.join(dir, 'one.yaml'), '- { slug: epl, region: Europe }\n');
  const handler = await dataset.create({ file: 'one.yaml', result: '{league: slug}' }, setup);
  const first = await handler(call({}));
  t.same(first, { type: 'json', result: { league: 'epl' }, text: '{"league":"epl"}' }, 'with its JSON');
  t.equal(await handler(call({})), first, 'the second pick of the item is the same answer');
});
