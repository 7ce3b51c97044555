/**
 * Language codes for translation. Clients send ISO 639-1 (`es`), sometimes with a region
 * (`pt-BR`, `pt_br`) or ISO 639-3 (`spa`); Apertium names languages in 639-3, DeepL in
 * upper-case 639-1 with a few required regions, LibreTranslate in 639-1.
 */
const ISO3: Record<string, string> = {
  af: 'afr',
  an: 'arg',
  ar: 'ara',
  ast: 'ast',
  be: 'bel',
  bg: 'bul',
  br: 'bre',
  ca: 'cat',
  cs: 'ces',
  cy: 'cym',
  da: 'dan',
  de: 'deu',
  el: 'ell',
  en: 'eng',
  eo: 'epo',
  es: 'spa',
  et: 'est',
  eu: 'eus',
  fa: 'fas',
  fi: 'fin',
  fr: 'fra',
  ga: 'gle',
  gl: 'glg',
  he: 'heb',
  hi: 'hin',
  hr: 'hrv',
  hu: 'hun',
  id: 'ind',
  is: 'isl',
  it: 'ita',
  ja: 'jpn',
  kk: 'kaz',
  ko: 'kor',
  lt: 'lit',
  lv: 'lav',
  mk: 'mkd',
  ms: 'msa',
  mt: 'mlt',
  nb: 'nob',
  nl: 'nld',
  nn: 'nno',
  oc: 'oci',
  pl: 'pol',
  pt: 'por',
  ro: 'ron',
  ru: 'rus',
  sk: 'slk',
  sl: 'slv',
  sq: 'sqi',
  sr: 'srp',
  sv: 'swe',
  sw: 'swa',
  th: 'tha',
  tr: 'tur',
  uk: 'ukr',
  ur: 'urd',
  vi: 'vie',
  zh: 'zho',
};
const ISO1 = Object.fromEntries(Object.entries(ISO3).map(([two, three]) => [three, two]));

export interface Language {
  /** ISO 639-1 where there is one (`pt`), else the code as sent. */
  base: string;
  /** Upper-case region or script, if any (`BR`). */
  region?: string;
}

/** `pt-BR`, `pt_br`, `por` → {base: 'pt', region: 'BR'} / {base: 'pt'}. */
export function parseLanguage(tag: string): Language {
  const [first, region] = tag.trim().replace(/_/g, '-').split('-');
  const lower = first.toLowerCase();
  return { base: ISO1[lower] ?? lower, ...(region ? { region: region.toUpperCase() } : {}) };
}

export const languageTag = (lang: Language): string => (lang.region ? `${lang.base}-${lang.region}` : lang.base);

/** ISO 639-3 for Apertium (`spa`), with Apertium's `_REGION` suffix when asked (`por_BR`). */
export const iso3 = (lang: Language): string => `${ISO3[lang.base] ?? lang.base}${lang.region ? `_${lang.region}` : ''}`;

/** An Apertium code (`por_BR`, `cat_valencia`) as a language. */
export function fromIso3(code: string): Language {
  const [base, variant] = code.split('_');
  return { base: ISO1[base] ?? base, ...(variant ? { region: variant.toUpperCase() } : {}) };
}
