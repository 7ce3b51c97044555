import { DomUtils } from 'htmlparser2';
import { byTag, parseHtml } from '../../features/tools/html/dom.js';

/**
 * Google Play's search page (play.google.com/store/search?q=…&c=apps) renders from data
 * its scripts hand to `AF_initDataCallback({key: 'ds:N', hash: '…', data: [...],
 * sideChannel: {}})`, one script per block. The results sit in block ds:4 (ds:1 or ds:3
 * in older layouts) as positional arrays: each listed app is a record whose [0][0] is
 * the package id, [3] the title, [4] the rating ([text, number]), [14] the developer;
 * a "top result" card may come first, with its fields under [2] and its package id at
 * [11][0][0]. Google has moved these blocks several times, so records are found by
 * their shape wherever they sit rather than by a fixed path.
 */
export interface PlayApp {
  appId: string;
  name: string;
  developer: string | null;
  summary: string | null;
  icon: string | null;
  /** The icon again, under the name the genre's clients read. */
  img: string | null;
  /** The rating as Play prints it ("4.3"), and as a number: the genre's clients read `rating_Num`. */
  rating: string | null;
  rating_Num: number | null;
  genre: string | null;
  installs: string | null;
  price: number | null;
  currency: string | null;
  free: boolean | null;
  link: string;
}

type Json = unknown[];

/** The upstream whose pages these are (endpoints/upstreams/google-play.yaml). */
const UPSTREAM = 'google-play';
const PACKAGE = /^[A-Za-z][\w]*(\.[A-Za-z0-9_]+)+$/;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const at = (v: unknown, ...path: number[]): unknown => path.reduce<unknown>((node, i) => (Array.isArray(node) ? node[i] : undefined), v);

/** The page's data blocks by key (`ds:4` → its data); a block whose data is not JSON is skipped. */
export function dataBlocks(html: string): Map<string, unknown> {
  const blocks = new Map<string, unknown>();
  for (const script of byTag(parseHtml(html, { upstream: UPSTREAM }), 'script')) {
    const code = DomUtils.textContent(script).trim();
    if (!code.startsWith('AF_initDataCallback(')) continue;
    const key = /key:\s*'([^']+)'/.exec(code)?.[1];
    const start = code.indexOf('data:');
    const end = code.lastIndexOf(', sideChannel:');
    if (!key || start < 0 || end < start) continue;
    try {
      blocks.set(key, JSON.parse(code.slice(start + 5, end)));
    } catch {
      // another kind of block (a function call, not JSON): not one that lists apps
    }
  }
  return blocks;
}

const price = (micros: unknown) => (num(micros) === null ? null : (micros as number) / 1_000_000);

/** A listed app: [0]=[package id], [1][3][2]=icon, [3]=title, [4]=[rating text, rating], [5]=genre, [8][1][0]=[price micros, currency], [13][1]=summary, [14]=developer, [15]=installs. */
function listed(core: Json): PlayApp {
  const appId = at(core, 0, 0) as string;
  const micros = at(core, 8, 1, 0, 0);
  const rating = num(at(core, 4, 1));
  return {
    appId,
    name: (core[3] as string).trim(),
    developer: str(core[14]),
    summary: str(at(core, 13, 1)),
    icon: str(at(core, 1, 3, 2)),
    img: str(at(core, 1, 3, 2)),
    rating: str(at(core, 4, 0)) ?? (rating === null ? null : rating.toFixed(1)),
    rating_Num: rating,
    genre: str(core[5]),
    installs: str(core[15]),
    price: price(micros),
    currency: str(at(core, 8, 1, 0, 1)),
    free: num(micros) === null ? null : micros === 0,
    link: detailsLink(appId),
  };
}

/** The top-result card: [2] holds the app's details page data, [11][0][0] the package id. */
function topCard(card: Json): PlayApp {
  const d = card[2] as Json;
  const appId = at(card, 11, 0, 0) as string;
  const micros = at(d, 57, 0, 0, 0, 0, 1, 0, 0);
  const rating = num(at(d, 51, 0, 1));
  return {
    appId,
    name: (at(d, 0, 0) as string).trim(),
    developer: str(at(d, 68, 0)),
    summary: str(at(d, 73, 0, 1)) ?? str(at(d, 72, 0, 1)),
    icon: str(at(d, 95, 0, 3, 2)),
    img: str(at(d, 95, 0, 3, 2)),
    rating: str(at(d, 51, 0, 0)) ?? (rating === null ? null : rating.toFixed(1)),
    rating_Num: rating,
    genre: str(at(d, 79, 0, 0, 0)),
    installs: str(at(d, 13, 0)),
    price: price(micros),
    currency: str(at(d, 57, 0, 0, 0, 0, 1, 0, 1)),
    free: num(micros) === null ? null : micros === 0,
    link: detailsLink(appId),
  };
}

const isListed = (a: Json) => typeof at(a, 0, 0) === 'string' && PACKAGE.test(at(a, 0, 0) as string) && typeof a[3] === 'string' && !!(a[3] as string).trim();
const isTopCard = (a: Json) =>
  Array.isArray(a[2]) && typeof at(a, 2, 0, 0) === 'string' && typeof at(a, 11, 0, 0) === 'string' && PACKAGE.test(at(a, 11, 0, 0) as string);

/** Every app record in a block, in page order (depth-first), the top card first where there is one. */
function appsIn(block: unknown): PlayApp[] {
  const found: PlayApp[] = [];
  const walk = (node: unknown, depth: number) => {
    if (!Array.isArray(node) || depth > 40) return;
    if (isTopCard(node)) return void found.push(topCard(node));
    if (isListed(node)) return void found.push(listed(node));
    for (const child of node) walk(child, depth + 1);
  };
  walk(block, 0);
  return found;
}

export const detailsLink = (appId: string) => `https://play.google.com/store/apps/details?id=${encodeURIComponent(appId)}`;

/**
 * The apps a search page lists, each once (the top card often repeats the first listed
 * app). `blocks: 0` means the page carries no data blocks at all: not a results page
 * (a consent or bot-check page, or a new layout); apps empty with blocks: no match.
 */
export function parseSearchPage(html: string): { blocks: number; apps: PlayApp[] } {
  const blocks = dataBlocks(html);
  // ds:4 holds the results in the current layout; the others are scanned if it lists none
  const ordered = [blocks.get('ds:4'), ...[...blocks].filter(([key]) => key !== 'ds:4').map(([, data]) => data)];
  let apps: PlayApp[] = [];
  for (const block of ordered) {
    apps = appsIn(block);
    if (apps.length) break;
  }
  const seen = new Set<string>();
  return { blocks: blocks.size, apps: apps.filter((app) => !seen.has(app.appId) && !!seen.add(app.appId)) };
}
