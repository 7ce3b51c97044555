/** /api/search/youtube's `ago` (the genre's yt-search field), from the Data API's publish time. */
import t from 'tap';
import { ago } from '../../engine/kinds/handlers/search/youtube.js';

const now = Date.parse('2026-11-27T12:00:00Z');
t.equal(ago('2023-11-01T12:00:00Z', now), '3 years ago');
t.equal(ago('2026-10-20T12:00:00Z', now), '1 month ago');
t.equal(ago('2026-11-20T12:00:00Z', now), '1 week ago');
t.equal(ago('2026-11-25T11:00:00Z', now), '2 days ago');
t.equal(ago('2026-11-27T09:30:00Z', now), '2 hours ago');
t.equal(ago('2026-11-27T11:59:30Z', now), '30 seconds ago');
t.equal(ago(undefined, now), undefined, 'unknown publish time: no ago');
t.equal(ago('not a date', now), undefined);
t.equal(ago('2027-01-01T00:00:00Z', now), undefined, 'a future time (a scheduled premiere): no ago');
