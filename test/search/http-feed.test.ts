import t from 'tap';
import { parseFeed } from '../../engine/kinds/adapters/http-feed.js';

t.test('Atom entries come out in the same shape as RSS items', async (t) => {
  const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example Feed</title>
  <link href="https://example.org/"/>
  <updated>2025-09-13T18:30:02Z</updated>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <entry>
    <title>Atom-Powered Robots Run Amok</title>
    <link href="https://example.org/2025/09/13/atom03"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <updated>2025-09-13T18:30:02Z</updated>
    <summary>Some text.</summary>
    <author><name>John Doe</name></author>
  </entry>
</feed>`;
  const feed = (await parseFeed('example', atom)) as { title: string; items: Record<string, unknown>[] };
  t.equal(feed.title, 'Example Feed');
  t.match(feed.items, [{ title: 'Atom-Powered Robots Run Amok', link: 'https://example.org/2025/09/13/atom03', isoDate: '2025-09-13T18:30:02.000Z' }]);
  t.equal(Object.getPrototypeOf(feed.items[0]), Object.prototype, 'plain objects for JMESPath');
});

t.test('an RSS <source> element becomes the publisher name', async (t) => {
  const rss =
    '<rss version="2.0"><channel><title>n</title><item><title>A - B</title><link>https://x.test/a</link><source url="https://b.test">B News</source></item></channel></rss>';
  const feed = (await parseFeed('news', rss)) as { items: { source?: string }[] };
  t.equal(feed.items[0].source, 'B News');
});

t.test('something that is not a feed is an upstream error', async (t) => {
  await t.rejects(parseFeed('news', '<html><body>maintenance</body></html>'), { status: 502, code: 'upstream_error', message: /not a valid RSS or Atom feed/ });
  await t.rejects(parseFeed('news', '{"json": true}'), { status: 502, code: 'upstream_error' });
});
