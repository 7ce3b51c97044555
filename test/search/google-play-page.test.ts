/**
 * The Google Play search-page reader on the layouts its examples do not show: results in
 * another data block (ds:1 and ds:3 held them before ds:4), script blocks that are not
 * JSON, a top card without a package id, and a page with no data blocks at all.
 */
import t from 'tap';
import { dataBlocks, parseSearchPage } from '../../engine/kinds/scrape/google-play.js';

const block = (key: string, data: string) => `<script nonce="n">AF_initDataCallback({key: '${key}', hash: '1', data:${data}, sideChannel: {}});</script>`;

/** A listed app record as Play writes it: [0]=[package], [3]=title, [4]=[rating text, rating], [14]=developer. */
function record(appId: string, title: string, developer: string): unknown[] {
  const core: unknown[] = new Array(16).fill(null);
  core[0] = [appId, 7];
  core[3] = title;
  core[4] = ['4.5', 4.51];
  core[14] = developer;
  return [core];
}

t.test('results found in an older block key, and a block that is not JSON skipped', async (t) => {
  const list = JSON.stringify([[null, [[null, [record('com.example.notes', 'Notes', 'Example Ltd'), record('org.example.todo', 'To-do', 'Example Org')]]]]]);
  const html = `<html><body>${block('ds:0', 'function(){return 1}')}${block('ds:1', list)}</body></html>`;
  t.same([...dataBlocks(html).keys()], ['ds:1'], 'the non-JSON block is left out');
  const { blocks, apps } = parseSearchPage(html);
  t.equal(blocks, 1);
  t.same(
    apps.map((a) => [a.appId, a.name, a.developer, a.rating_Num, a.link]),
    [
      ['com.example.notes', 'Notes', 'Example Ltd', 4.51, 'https://play.google.com/store/apps/details?id=com.example.notes'],
      ['org.example.todo', 'To-do', 'Example Org', 4.51, 'https://play.google.com/store/apps/details?id=org.example.todo'],
    ],
  );
});

t.test('a top card without a package id is not an app; a title that is not a package stays out', async (t) => {
  const details: unknown[] = new Array(100).fill(null);
  details[0] = ['Notes'];
  const card: unknown[] = [null, null, details]; // no [11][0][0]
  const notAnApp = new Array(16).fill(null);
  notAnApp[0] = ['Not a package'];
  notAnApp[3] = 'Some heading';
  const ds4 = JSON.stringify([[null, [[card], [null, [record('com.example.notes', 'Notes', 'Example Ltd'), [notAnApp]]]]]]);
  const { apps } = parseSearchPage(block('ds:4', ds4));
  t.same(
    apps.map((a) => a.appId),
    ['com.example.notes'],
  );
});

t.test('a page without data blocks reports none, so the handler can tell it from no match', async (t) => {
  t.same(parseSearchPage('<html><body><form action="https://consent.google.com/save"></form></body></html>'), { blocks: 0, apps: [] });
  t.same(parseSearchPage(block('ds:4', '[[null,[]]]')), { blocks: 1, apps: [] });
});
