/**
 * The Ultimate Guitar page reader on what its examples do not show: the js-store div with
 * its attributes in another order and more classes, entities other than &quot;, a page
 * whose store is not JSON, and chord marks with sharps, slashes and Windows line ends.
 */
import t from 'tap';
import { chordNames, pageData, plainSheet } from '../../engine/kinds/scrape/ultimate-guitar.js';

const escape = (json: string) => json.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

t.test('store.page.data from the js-store div, wherever its attributes sit', async (t) => {
  const json = JSON.stringify({ store: { page: { data: { tab: { song_name: "Don't Stop", artist_name: 'Fleetwood Mac & Co' } } } } });
  const html = `<html><body><div data-content="${escape(json)}" id="x" class="js-page js-store"></div></body></html>`;
  t.same(pageData(html, 'ultimate-guitar'), { tab: { song_name: "Don't Stop", artist_name: 'Fleetwood Mac & Co' } });
});

t.test('a page without the store, or with a store that is not JSON, is an upstream error', async (t) => {
  for (const html of ['<html><body><h1>Just a moment...</h1></body></html>', '<div class="js-store" data-content="{not json"></div>']) {
    t.throws(() => pageData(html, 'ultimate-guitar'), { status: 502, code: 'upstream_error' }, html);
  }
});

t.test('the sheet as plain text, and the chords it uses in order of first use', async (t) => {
  const content = '[Verse]\r\n[tab][ch]F#m[/ch]   [ch]D/F#[/ch]  [ch]F#m[/ch]\r\nWords here[/tab]\r\n[ch]Bm7b5[/ch]\r\n';
  t.equal(plainSheet(content), '[Verse]\nF#m   D/F#  F#m\nWords here\nBm7b5');
  t.same(chordNames(content), ['F#m', 'D/F#', 'Bm7b5']);
});
