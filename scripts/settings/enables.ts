import path from 'node:path';
import type { Config } from '../../engine/platform/config.js';
import { ADAPTERS } from '../../engine/kinds/adapters/index.js';
import type { AdapterSetup } from '../../engine/contract/call.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import { unavailableReason } from '../../engine/pipeline/endpoint-registry.js';
import { UpstreamRegistry, type UpstreamSpec } from '../../engine/catalog/upstreams.js';
import { ROOT } from '../../engine/app/app.js';

/**
 * Which variables enable which endpoints, learned by asking the engine's own availability
 * check (registry.ts unavailableReason) under made-up environments rather than by reading
 * the requirements a second way: an endpoint *needs* V when, with every variable set, it is
 * unavailable without V; V is *one way* to enable it when its needs plus V make it available
 * (an AI model any of several providers serves, a search with a key or a local binary).
 * Binaries count through their override variables (`FFMPEG_PATH`), with PATH pointing
 * nowhere, so the answer does not depend on what this machine has installed.
 */
export interface Enablement {
  /** Endpoint id → variables it needs, all of them. */
  needs: Map<string, string[]>;
  /** Endpoint id → sets of variables of which any one set (with its needs) enables it: [[A], [B, C]] is A, or B and C together. */
  anyOf: Map<string, string[][]>;
  /** Endpoints unavailable with every variable set (a missing data file…). */
  never: string[];
}

/** A value each variable can be probed with: an executable for paths, a readable file for files, a directory for directories. */
function probeValue(name: string): string {
  if (name.endsWith('_PATH') || name.endsWith('_FILE')) return process.execPath;
  if (name.endsWith('_DIR')) return ROOT;
  return '1';
}

/** Variables whose value names a place this process would start from: probing them would load other manifests or data. */
const NOT_PROBED = new Set(['ENDPOINTS_DIR', 'DATA_DIR']);

/** Enough for the AI aliases, which the most providers serve. */
const MAX_ALTERNATIVES = 12;

/**
 * A smallest subset of `set` (not the smallest: one no member of which can go) for which `on`
 * holds, halving first: the sets that enable an endpoint are one or two variables among
 * hundreds, so large parts go at once (delta debugging's reduction).
 */
function minimize(set: string[], on: (set: string[]) => boolean): string[] {
  let current = set;
  for (let size = Math.ceil(current.length / 2); size >= 1; size = size === 1 ? 0 : Math.ceil(size / 2)) {
    for (let i = 0; i < current.length;) {
      const without = [...current.slice(0, i), ...current.slice(i + size)];
      if (without.length < current.length && on(without)) current = without;
      else i += size;
    }
  }
  return current;
}

export function enablement(endpoints: Endpoint[], specs: UpstreamSpec[], variables: string[]): Enablement {
  const probed = variables.filter((v) => !NOT_PROBED.has(v));
  const unavailableUnder = (set: Iterable<string>, among: Endpoint[]): Set<string> => {
    const env: Record<string, string> = { PATH: path.join(ROOT, 'no-such-dir') };
    for (const name of set) env[name] = probeValue(name);
    // availability reads only the environment: a whole Config would check every probe value (a token's strength…)
    const config = { env: Object.freeze(env) } as unknown as Config;
    const upstreams = new UpstreamRegistry(specs, config.env);
    const out = new Set<string>();
    for (const endpoint of among) {
      const setup = { config, endpoint, manifestDir: endpoint.dir, upstreams } as unknown as AdapterSetup;
      if (unavailableReason(endpoint, ADAPTERS.get(endpoint.adapter.kind)!, setup)) out.add(endpoint.id);
    }
    return out;
  };

  const never = unavailableUnder(probed, endpoints);
  const possible = endpoints.filter((e) => !never.has(e.id));
  const needs = new Map<string, string[]>();
  for (const name of probed) {
    const without = unavailableUnder(
      probed.filter((v) => v !== name),
      possible,
    );
    for (const id of without) needs.set(id, [...(needs.get(id) ?? []), name]);
  }

  // the rest: endpoints their needs alone do not enable have alternatives, found one at a time:
  // the smallest set of variables (beyond the needs) that enables the endpoint, then again without one of it
  const anyOf = new Map<string, string[][]>();
  for (const endpoint of possible) {
    const base = needs.get(endpoint.id) ?? [];
    const on = (set: string[]) => unavailableUnder([...base, ...set], [endpoint]).size === 0;
    if (on([])) continue;
    const alternatives: string[][] = [];
    let pool = probed.filter((v) => !base.includes(v));
    while (alternatives.length < MAX_ALTERNATIVES && on(pool)) {
      const minimal = minimize(pool, on);
      alternatives.push(minimal);
      pool = pool.filter((v) => v !== minimal[0]);
    }
    anyOf.set(endpoint.id, alternatives);
  }
  return { needs, anyOf, never: [...never].sort() };
}
