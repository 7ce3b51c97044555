/**
 * The boot log's account of the endpoints that cannot run here, grouped by what would
 * enable them: `unavailable: 77 — install yt-dlp and ffmpeg and ffprobe: 54 (download/aio, …);
 * set OPENAI_BASE_URL: 12 (…)`. An endpoint that any of several things would enable (an AI
 * model several providers serve) counts in the group of each, so a group says all that one
 * step would enable; the total counts each endpoint once. The groups are read from the
 * reasons the registry gives
 * (registry.ts, upstreams.ts, the adapters, ai/registry.ts), whose forms are:
 *
 * - `A, B not set` and `x, y not installed`, possibly after an upstream's name (`giphy: …`);
 * - alternatives joined by `; ` (an HTTP endpoint's providers, a code endpoint's upstreams);
 * - `set A or install x (…)` (a manifest's `requires.anyOf`);
 * - `npm package x not installed (npm install -w optional/NAME)` (a manifest's `requires.npm`);
 * - `no provider configured for <model>; it can run on P (A not set) or Q (B not set), or on
 *   any OpenAI-compatible gateway …` (an AI model alias);
 * - anything else (`YTDLP_PATH (…) is not an executable`) is its own group, as written.
 */
export interface UnavailableGroup {
  /** What to do: `set OPENAI_BASE_URL`, `install chromium`, `set GOOGLE_CSE_KEY and GOOGLE_CSE_CX`. */
  fix: string;
  count: number;
  /** The first few endpoints it would enable, as `download/aio`. */
  examples: string[];
}

export interface UnavailableSummary {
  total: number;
  groups: UnavailableGroup[];
}

const EXAMPLES = 3;
const LIST = /^(.+?) not (set|installed)$/;

/** The alternatives, each of which would enable an endpoint unavailable for `reason`. */
export function fixesFor(reason: string): string[] {
  const npm = /^npm packages? .+ not installed \((npm (?:install|ci)\b[^)]*)\)$/.exec(reason);
  if (npm) return [npm[1]];
  const anyOf = /^(set .+?|install .+?) \(/.exec(reason);
  if (anyOf) return anyOf[1].split(' or ');
  if (reason.startsWith('no provider configured for ')) {
    const unset = [...reason.matchAll(/\(([A-Z][A-Z0-9_, ]*) not set\)/g)].map((m) => `set ${m[1].split(', ').join(' and ')}`);
    // every alias can also run on a gateway, which the reason names last
    const gateway = /or on any OpenAI-compatible gateway/.test(reason) ? ['set OPENAI_BASE_URL and AI_GATEWAY=1'] : [];
    const fixes = [...new Set([...unset, ...gateway])];
    return fixes.length ? fixes : [reason];
  }
  const fixes = reason.split('; ').map((clause) => {
    const list = LIST.exec(clause.replace(/^[a-z0-9-]+: /, ''));
    if (!list) return clause;
    const names = list[1].split(', ').join(' and ');
    return list[2] === 'set' ? `set ${names}` : `install ${names}`;
  });
  return [...new Set(fixes)];
}

/** One fix with every endpoint it would enable (the console's page lists them all). */
export interface UnavailableFix {
  fix: string;
  /** The settings the fix names: `set OPENAI_BASE_URL and AI_GATEWAY=1` → OPENAI_BASE_URL, AI_GATEWAY. */
  variables: string[];
  endpoints: { id: string; reason: string }[];
}

/** The variables a fix names: each after `set` (`X=1` gives X), or the one a reason as written starts with. */
export function variablesOf(fix: string): string[] {
  if (fix.startsWith('set '))
    return fix
      .slice(4)
      .split(' and ')
      .map((name) => name.replace(/=.*$/, ''));
  const leading = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.exec(fix);
  return leading ? [leading[0]] : [];
}

type Routes = readonly { endpoint: { id: string }; unavailable?: string }[];

/** Every unavailable route under each fix that would enable it, the largest group first. */
export function groupUnavailable(routes: Routes): { total: number; groups: UnavailableFix[] } {
  const groups = new Map<string, UnavailableFix>();
  let total = 0;
  for (const route of routes) {
    const reason = route.unavailable;
    if (!reason) continue;
    total++;
    for (const fix of fixesFor(reason)) {
      const group = groups.get(fix) ?? { fix, variables: variablesOf(fix), endpoints: [] };
      group.endpoints.push({ id: route.endpoint.id, reason });
      groups.set(fix, group);
    }
  }
  return { total, groups: [...groups.values()].sort((a, b) => b.endpoints.length - a.endpoints.length || a.fix.localeCompare(b.fix)) };
}

/** The unavailable routes grouped by fix, the largest group first, with a few examples each (the boot line). */
export function summarizeUnavailable(routes: Routes): UnavailableSummary {
  const { total, groups } = groupUnavailable(routes);
  return {
    total,
    groups: groups.map(({ fix, endpoints }) => ({ fix, count: endpoints.length, examples: endpoints.slice(0, EXAMPLES).map((e) => shortId(e.id)) })),
  };
}

/** One line for the log: `unavailable: 77 — install ffmpeg: 54 (download/aio, …); set A: 12 (…)`. */
export function formatUnavailable(summary: UnavailableSummary): string {
  if (!summary.total) return 'unavailable: 0';
  const parts = summary.groups.map((g) => `${g.fix}: ${g.count} (${g.examples.join(', ')}${g.count > g.examples.length ? ', …' : ''})`);
  return `unavailable: ${summary.total} — ${parts.join('; ')}`;
}

/** `GET /api/download/aio` → `download/aio`. */
const shortId = (id: string) => id.replace(/^[A-Z]+ \/(api\/)?/, '');
