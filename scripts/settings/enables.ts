import path from 'node:path';
import { loadConfig } from '../../engine/config.js';
import { ADAPTERS } from '../../engine/adapters/index.js';
import type { AdapterSetup } from '../../engine/adapters/types.js';
import type { Endpoint } from '../../engine/manifest/types.js';
import { unavailableReason } from '../../engine/registry.js';
import { UpstreamRegistry, type UpstreamSpec } from '../../engine/upstreams.js';
import { ROOT } from '../../engine/app.js';

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
  /** Endpoint id → variables of which any one (with its needs) enables it. */
  anyOf: Map<string, string[]>;
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

export function enablement(endpoints: Endpoint[], specs: UpstreamSpec[], variables: string[]): Enablement {
  const probed = variables.filter((v) => !NOT_PROBED.has(v));
  const unavailableUnder = (set: Iterable<string>, among: Endpoint[]): Set<string> => {
    const env: Record<string, string> = { PATH: path.join(ROOT, 'no-such-dir') };
    for (const name of set) env[name] = probeValue(name);
    const config = loadConfig(env);
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

  // the rest: endpoints their needs alone do not enable, grouped by those needs so each set is probed once per variable
  const anyOf = new Map<string, string[]>();
  const byNeeds = new Map<string, Endpoint[]>();
  for (const endpoint of possible) {
    const key = (needs.get(endpoint.id) ?? []).join(',');
    byNeeds.set(key, [...(byNeeds.get(key) ?? []), endpoint]);
  }
  for (const [key, group] of byNeeds) {
    const base = key ? key.split(',') : [];
    const stillOff = group.filter((e) => unavailableUnder(base, [e]).size);
    if (!stillOff.length) continue;
    for (const name of probed) {
      if (base.includes(name)) continue;
      const off = unavailableUnder([...base, name], stillOff);
      for (const endpoint of stillOff) if (!off.has(endpoint.id)) anyOf.set(endpoint.id, [...(anyOf.get(endpoint.id) ?? []), name]);
    }
  }
  return { needs, anyOf, never: [...never].sort() };
}
