import fs from 'node:fs';
import t from 'tap';
import { loadTemplates, TEMPLATES_DIR } from '../../engine/features/effects/templates.js';
import { FONTS, registerFonts } from '../../engine/features/effects/fonts.js';
import { GlobalFonts } from '@napi-rs/canvas';

const registry = loadTemplates();
const all = [...registry.values()].map((l) => l.template);

/** The ephoto360 slugs clients of the genre already call (shared/reference/peer-endpoints.md §6). */
const CLIENT_SLUGS = [
  'glossysilver',
  'writetext',
  'blackpinklogo',
  'glitchtext',
  'advancedglow',
  'typography',
  'typographytext',
  'pixelglitch',
  'neonglitch',
  'nigerianflag',
  'americanflag',
  'deletingtext',
  'blackpink',
  'blackpinkstyle',
  'glowingtext',
  'underwater',
  'logomaker',
  'cartoonstyle',
  'papercut',
  'multicolored',
  'effectclouds',
  'gradienttext',
  'summerbeach',
  'sandsummer',
  'luxurygold',
  'galaxy',
  'galaxystyle',
  'effect1917',
  'makingneon',
  'texteffect',
  'lighteffect',
  'hackerAvatar',
  'colorfulneon',
  'dragonball',
  'comic3d',
  'narutoShippuden',
  'arrowTattoo',
  '1917',
  'watercolor',
  'mascotShield',
  'foilBalloon',
  'brokenGlass',
  'footballLogo',
  'neonDevilWings',
  'christmasSnow',
  'fireworks',
  'sandWriting',
  'angelWing',
  'foggyGlass',
  'shinyMetallic3d',
  'futuristicLight',
];
const CLIENT_DUAL_SLUGS = ['space3d', 'pencilSketch', 'thorLogo', 'deadpool', 'footballShirt', 'wolfGalaxy', 'marvelLogo', 'avengersLogo', 'tiktok'];

t.test('every template file validates against the schema and is named after its slug', async (t) => {
  t.equal(registry.size, fs.readdirSync(TEMPLATES_DIR).filter((n) => n.endsWith('.yaml')).length);
  t.ok(registry.size >= 845, `at least 845 templates (has ${registry.size})`);
});

t.test('names are unique and every family of the style catalogue is covered', async (t) => {
  t.equal(new Set(all.map((x) => x.name)).size, all.length, 'unique names');
  const families = new Set(all.map((x) => x.family));
  for (const f of [
    'neon',
    'glitch',
    'metal',
    'gold',
    '3d',
    'fire',
    'ice',
    'water',
    'nature',
    'wood',
    'stone',
    'sand',
    'sky',
    'galaxy',
    'horror',
    'candy',
    'balloon',
    'graffiti',
    'comic',
    'retro',
    'paper',
    'sketch',
    'light',
    'logo',
    'christmas',
    'halloween',
    'new-year',
    'valentine',
    'birthday',
    'sport',
    'glass',
    'fabric',
    'flag',
    'typography',
    'sci-fi',
    'frame',
    'thunder',
    'smoke',
    'watercolor',
    'vintage',
  ])
    t.ok(families.has(f), `family ${f}`);
});

t.test('the slugs clients already call exist under /api/ephoto360 with the right inputs', async (t) => {
  for (const slug of CLIENT_SLUGS) t.match(registry.get(slug)?.template, { site: 'ephoto360', input: 'text' }, slug);
  for (const slug of CLIENT_DUAL_SLUGS) t.match(registry.get(slug)?.template, { site: 'ephoto360', input: 'text2' }, slug);
});

t.test('photo templates are in the photofunia family and use the photo', async (t) => {
  const photo = all.filter((x) => x.input.startsWith('image'));
  t.ok(photo.length >= 30, `${photo.length} photo templates`);
  for (const x of photo) {
    t.equal(x.site, 'photofunia', x.slug);
    t.ok(
      x.background.some((l) => l.type === 'image'),
      `${x.slug} draws the photo`,
    );
  }
  for (const x of all.filter((y) => y.site === 'photofunia')) t.ok(x.input.startsWith('image'), `${x.slug} takes a photo`);
});

t.test('two-text templates draw both texts; one-text templates draw the text', async (t) => {
  for (const x of all) {
    const sources = new Set((x.text ?? []).filter((l) => !l.content).map((l) => l.source ?? 'text'));
    if (x.input === 'text2') t.same([...sources].sort(), ['text1', 'text2'], x.slug);
    else if (x.input === 'image') t.equal(sources.size, 0, x.slug);
    else t.same([...sources], ['text'], x.slug);
  }
});

t.test('every font loads into Skia', async (t) => {
  registerFonts();
  const families = new Set(GlobalFonts.families.map((f) => f.family));
  for (const { family } of Object.values(FONTS)) t.ok(families.has(family), family);
});

t.test('a broken template is rejected with its file name', async (t) => {
  const dir = t.testdir({
    'bad.yaml':
      'slug: bad\nname: Bad one\nsite: textpro\nfamily: neon\ndescription: a template missing its canvas.\ninput: text\nbackground: [{type: fill, paint: "#000"}]\n',
  });
  t.throws(() => loadTemplates(dir), /bad\.yaml: .*canvas/);
});

t.test('templates/FONTS.md lists every font with its licence', async (t) => {
  const doc = fs.readFileSync(new URL('../../templates/FONTS.md', import.meta.url), 'utf8');
  for (const [id, font] of Object.entries(FONTS)) t.match(doc, new RegExp(`\\| \`${id}\` \\| ${font.family} \\| .* \\| ${font.licence} \\|`), id);
});
