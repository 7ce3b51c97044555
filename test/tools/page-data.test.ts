import t from 'tap';
import { PageData, displayCount } from '../../engine/features/tools/html/page-data.js';

/** What the profile and channel lookups read from public pages, on the markup variations pages really use. */
t.test('meta tags by property or name, in any attribute order and quoting, entities decoded', async (t) => {
  const page = new PageData(
    `<html><head>
    <meta content='Tom &amp; Jerry' property=og:title>
    <meta name="description" content="  A cartoon.  ">
    <meta property="og:image" content="">
  </head></html>`,
    'fixture',
  );
  t.equal(page.meta('og:title'), 'Tom & Jerry');
  t.equal(page.meta('description'), 'A cartoon.');
  t.equal(page.meta('og:image'), undefined, 'an empty tag is absent');
  t.equal(page.meta('og:url'), undefined);
});

t.test('the JSON of a script by id; anything else is undefined', async (t) => {
  const json = '{"a":{"b":"</div> <b>not markup</b>"}}';
  const page = new PageData(
    `<body><div id="x">{"no":1}</div><script id="data" type="application/json">${json}</script><script id="bad">{oops</script></body>`,
    'fixture',
  );
  t.same(page.scriptJson('data'), { a: { b: '</div> <b>not markup</b>' } }, 'script text is raw, not parsed as HTML');
  t.equal(page.scriptJson('bad'), undefined, 'not JSON');
  t.equal(page.scriptJson('x'), undefined, 'not a script');
  t.equal(page.scriptJson('missing'), undefined);
});

t.test('heading texts, whitespace collapsed, empty ones left out', async (t) => {
  const page = new PageData('<h5>Channel |\n  <b>8.3K</b> followers</h5><h5> </h5><h3>x</h3>', 'fixture');
  t.same(page.texts('h5'), ['Channel | 8.3K followers']);
});

t.test('display counts', async (t) => {
  t.equal(displayCount('8,305 followers'), 8305);
  t.equal(displayCount('Channel | 8.3K followers'), 8300);
  t.equal(displayCount('2.4M followers'), 2400000);
  t.equal(displayCount('1.25b'), 1250000000);
  t.equal(displayCount('17 followers'), 17);
  t.equal(displayCount('no count'), undefined);
});
