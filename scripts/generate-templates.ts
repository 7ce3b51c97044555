/**
 * Writes templates/<slug>.yaml from the family definitions in
 * scripts/effect-templates/. Each output is a standalone template file. It writes
 * only what it owns (scripts/effect-templates/write.ts): hand-written templates and
 * generated ones edited by hand since are kept, and reported.
 * Run: node --import tsx scripts/generate-templates.ts
 */
import path from 'node:path';
import YAML from 'yaml';
import { TEMPLATES_DIR } from '../engine/features/effects/templates.js';
import type { Template } from '../engine/features/effects/template.generated.js';
import { slugify, type Draft } from './effect-templates/kit.js';
import { writeTemplates } from './effect-templates/write.js';
import * as light from './effect-templates/families-light.js';
import * as material from './effect-templates/families-material.js';
import * as style from './effect-templates/families-style.js';
import { photoEffects } from './effect-templates/families-photo.js';
import { clientSlugs } from './effect-templates/client-slugs.js';

const SITES: Template['site'][] = ['textpro', 'ephoto360', 'photooxy'];
const families: (() => Draft[])[] = [
  light.neon,
  light.glow,
  light.glitch,
  light.galaxy,
  light.retro,
  light.pixel,
  light.scifi,
  light.matrix,
  light.thunder,
  light.rainbow,
  material.metals,
  material.gold,
  material.glitter,
  material.gems,
  material.threeD,
  material.fire,
  material.ice,
  material.water,
  material.nature,
  material.wood,
  material.stone,
  material.sand,
  material.sky,
  material.candy,
  material.balloon,
  material.glass,
  material.fabric,
  style.graffiti,
  style.comic,
  style.paper,
  style.sketch,
  style.badges,
  style.holidays,
  style.sport,
  style.flags,
  style.typography,
  style.horror,
  style.vintage,
  style.watercolor,
  style.smoke,
  style.longShadow,
  style.emboss,
];

const drafts: Draft[] = [
  ...clientSlugs(),
  ...photoEffects(),
  ...families.flatMap((f, i) => f().map((d, j) => ({ ...d, site: d.site ?? SITES[(i + j) % SITES.length] }))),
];
const seen = new Set<string>();
const templates: Template[] = drafts.map((d) => {
  const slug = d.slug ?? slugify(d.name);
  if (seen.has(slug)) throw new Error(`duplicate slug ${slug} (${d.name})`);
  seen.add(slug);
  // Fixed key order keeps the files readable and diffs small.
  const { name, site, family, description, aliases, tags, input, canvas, format, background, text, filters } = d;
  return JSON.parse(
    JSON.stringify({ slug, name, site, family, description, aliases, tags: tags && [...new Set(tags)], input, canvas, format, background, text, filters }),
  ) as Template;
});

const report = writeTemplates(
  TEMPLATES_DIR,
  templates.map((t) => ({ slug: t.slug, family: t.family, body: YAML.stringify(t, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'block' }) })),
);
const where = path.relative(process.cwd(), TEMPLATES_DIR);
console.log(`${templates.length} templates: ${report.written} written, ${report.removed} removed in ${where}`);
for (const name of report.skipped) console.log(`  kept hand-written ${name} (a generated template has the same slug: rename one of them)`);
for (const name of report.kept) console.log(`  kept ${name}: edited by hand since it was generated (remove it to regenerate)`);
