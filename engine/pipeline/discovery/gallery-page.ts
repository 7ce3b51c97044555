/** One gallery card: what the page shows and the request a client would send. */
export interface GalleryEntry {
  slug: string;
  name: string;
  family: string;
  description: string;
  tags: string[];
  path: string;
  example: string;
  preview: string;
}

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The gallery HTML: the entries travel as inert JSON; gallery.js builds and filters the cards. */
export function galleryPage(entries: GalleryEntry[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Effect gallery · Manifold</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: #101218; color: #e8eaf0; }
  header { position: sticky; top: 0; z-index: 1; padding: 14px 20px; background: #181b24; border-bottom: 1px solid #2a2f3c; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  h1 { font-size: 20px; margin: 0; }
  input[type=search] { flex: 1; min-width: 220px; padding: 8px 12px; border-radius: 8px; border: 1px solid #3a4152; background: #0d0f14; color: inherit; font-size: 15px; }
  #count { color: #9aa3b5; }
  main { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 16px; padding: 20px; }
  .card { background: #181b24; border: 1px solid #2a2f3c; border-radius: 10px; overflow: hidden; }
  .card img { display: block; width: 100%; aspect-ratio: 2 / 1; object-fit: contain; background: #0b0c10; }
  .card div { padding: 10px 12px; }
  .card h2 { font-size: 15px; margin: 0 0 4px; }
  .card p { margin: 0 0 8px; color: #b4bccb; font-size: 13px; }
  .card code { display: block; font-size: 11px; color: #9ad0ff; word-break: break-all; margin-bottom: 8px; }
  .card button { font-size: 12px; padding: 4px 10px; border-radius: 6px; border: 1px solid #3a4152; background: #232838; color: inherit; cursor: pointer; }
  .tag { font-size: 11px; color: #9aa3b5; }
</style>
</head>
<body>
<header>
  <h1>Effect gallery</h1>
  <input type="search" id="q" placeholder="Search effects: neon, gold, glitch, christmas…" autofocus>
  <span id="count"></span>
</header>
<main id="cards"></main>
<script type="application/json" id="entries">${escapeJson(entries)}</script>
<script src="/gallery/gallery.js"></script>
</body>
</html>
`;
}

/** Builds the cards, filters them as the search box changes, copies the example request. */
export const GALLERY_SCRIPT = `(() => {
  const entries = JSON.parse(document.getElementById('entries').textContent);
  const cards = document.getElementById('cards');
  const count = document.getElementById('count');
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  const nodes = entries.map((e) => {
    const card = el('article', { className: 'card' });
    const img = el('img', { src: e.preview, alt: e.name + ' preview', loading: 'lazy', width: 320, height: 160 });
    const body = document.createElement('div');
    const copy = el('button', { type: 'button', textContent: 'Copy request' });
    copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(e.example); copy.textContent = 'Copied'; } catch { copy.textContent = 'Select and copy'; }
    });
    body.append(el('h2', { textContent: e.name }), el('p', { textContent: e.description }), el('code', { textContent: e.example }), copy,
      el('span', { className: 'tag', textContent: '  ' + e.family + ' · ' + e.path }));
    card.append(img, body);
    card.dataset.search = [e.name, e.slug, e.family, e.path, e.description, ...e.tags].join(' ').toLowerCase();
    return card;
  });
  cards.append(...nodes);
  const q = document.getElementById('q');
  const filter = () => {
    const words = q.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    for (const n of nodes) {
      const match = words.every((w) => n.dataset.search.includes(w));
      n.hidden = !match;
      if (match) shown++;
    }
    count.textContent = shown + ' of ' + nodes.length + ' effects';
  };
  q.addEventListener('input', filter);
  filter();
})();
`;
