import fs from 'node:fs';
import path from 'node:path';
import type { Fixture } from '../../engine/core/manifest-types.js';

/**
 * Example fixtures for the harness's non-HTTP servers (./fixture-dns.ts,
 * ./fixture-whois.ts). They sit in the example's `fixtures` list under a reserved
 * upstream name, with `path` holding what is asked (a DNS name, a WHOIS query line)
 * and `file` or `json` the answer. Indexes are the example's own, so the harness
 * merges what every server used into one "every fixture was requested" check.
 */
export const DNS_UPSTREAM = 'dns';
export const WHOIS_UPSTREAM = 'whois';

/** What each fixture server hands the harness between examples. */
export interface FixtureServer {
  /** host:port, as DNS_SERVERS / WHOIS_SERVER take it. */
  address: string;
  use(fixtures: Fixture[], dir: string): void;
  /** Since `use`: indexes of fixtures asked for, and what was asked that no fixture answers (or could not be answered). */
  hits(): { used: Set<number>; unmatched: string[] };
  close(): Promise<void>;
}

/** DNS names and WHOIS queries compare without case, surrounding space or a root dot. */
const normalise = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The current example's fixtures of one reserved upstream, looked up by what is asked. */
export function fixtureBook(upstream: string) {
  let fixtures: Fixture[] = [];
  let dir = '';
  let used = new Set<number>();
  let unmatched: string[] = [];
  return {
    use(next: Fixture[], nextDir: string) {
      fixtures = next;
      dir = nextDir;
      used = new Set();
      unmatched = [];
    },
    /** The fixture answering `name` (recorded as used), or undefined. */
    find(name: string): Fixture | undefined {
      const index = fixtures.findIndex((f) => f.upstream === upstream && normalise(f.path) === normalise(name));
      if (index === -1) return undefined;
      used.add(index);
      return fixtures[index];
    },
    /** The fixture's answer: its file (relative to the manifest) or its inline `json`. */
    body(fixture: Fixture): { file: Buffer } | { json: unknown } {
      return fixture.file ? { file: fs.readFileSync(path.resolve(dir, fixture.file)) } : { json: fixture.json };
    },
    miss(what: string) {
      unmatched.push(`${upstream} ${what}`);
    },
    hits: () => ({ used, unmatched }),
  };
}
