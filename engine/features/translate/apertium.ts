import net from 'node:net';
import type { Config } from '../../platform/config.js';
import { upstreamError } from '../../core/errors.js';
import { upstreamStatusOf, type HttpClient } from '../../platform/http/client.js';
import { startTool, type Tool } from '../media/child.js';
import { binaryPath } from '../../core/binaries.js';
import type { EngineScope } from '../../platform/scope.js';

/**
 * Apertium, the rule-based translator, served by its own HTTP server (apertium-apy) run
 * as a managed child: started on the first translation, on a free loopback port, and
 * stopped on shutdown. APY starts one pipeline of processes per language pair on demand
 * (and stops it after MAX_IDLE_S idle); it runs as the leader of its own process group,
 * so stopping it kills the pipelines too. If it dies, the next call starts it again.
 */
export interface Pair {
  /** Apertium codes: `eng`, `spa`, `por_BR`, `cat_valencia`. */
  from: string;
  to: string;
}

const MAX_IDLE_S = 600;
const READY_TIMEOUT_MS = 20_000;
const NAME = 'apertium';

interface Running {
  base: string;
  tool: Tool;
}

export class ApertiumServer {
  private running?: Promise<Running>;
  private pairList?: Promise<Pair[]>;

  constructor(
    private readonly env: Readonly<Record<string, string>>,
    private readonly http: HttpClient,
  ) {}

  /** The installed pairs (APY's /listPairs), asked once per server start. */
  pairs(signal: AbortSignal): Promise<Pair[]> {
    this.pairList ??= this.start().then(async ({ base }) => {
      const data = await this.http.upstreamJson<{ responseData?: { sourceLanguage: string; targetLanguage: string }[] }>({
        upstream: NAME,
        url: `${base}/listPairs`,
        timeoutMs: 10_000,
        signal,
      });
      return (data.responseData ?? []).map((p) => ({ from: p.sourceLanguage, to: p.targetLanguage }));
    });
    this.pairList.catch(() => (this.pairList = undefined));
    return this.pairList;
  }

  async translate(text: string, pair: Pair, signal: AbortSignal, timeoutMs: number): Promise<string> {
    const { base } = await this.start();
    let data: { responseData?: { translatedText?: string } };
    try {
      data = await this.http.upstreamJson({
        upstream: NAME,
        method: 'POST',
        url: `${base}/translate`,
        // markUnknown=no: APY would otherwise star every word it does not know (*Manifold)
        form: { langpair: `${pair.from}|${pair.to}`, q: text, markUnknown: 'no' },
        timeoutMs,
        signal,
        retries: 0,
      });
    } catch (error) {
      if (upstreamStatusOf(error) === 400) throw upstreamError(NAME, `the pair ${pair.from}|${pair.to} is not installed`, error);
      throw error;
    }
    const translated = data.responseData?.translatedText;
    if (typeof translated !== 'string') throw upstreamError(NAME, 'no translatedText in the answer');
    return translated;
  }

  /** Stop APY and every pipeline it started. */
  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.pairList = undefined;
    if (!running) return;
    const { tool } = await running.catch(() => ({ tool: undefined }));
    if (!tool) return;
    tool.kill();
    await tool.exited.catch(() => undefined);
  }

  private start(): Promise<Running> {
    if (!this.running) {
      const running = this.launch();
      this.running = running;
      running.catch(() => {
        if (this.running === running) this.running = undefined;
      });
    }
    return this.running;
  }

  private async launch(): Promise<Running> {
    const port = await freePort();
    const modes = this.env.APERTIUM_MODES_DIR || '/usr/share/apertium/modes';
    // stdout is not read: APY logs to stderr, which startTool keeps the tail of
    const tool = startTool(binaryPath('apertium-apy', this.env), ['-p', String(port), '-m', String(MAX_IDLE_S), modes], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const base = `http://127.0.0.1:${port}`;
    let exited = false;
    tool.exited
      .catch(() => undefined)
      .finally(() => {
        exited = true;
        // a server that died is started again by the next call
        if (this.running && this.runningTool === tool) {
          this.running = undefined;
          this.pairList = undefined;
        }
      });
    this.runningTool = tool;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!exited && Date.now() < deadline) {
      const ready = await fetch(`${base}/listPairs`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return { base, tool };
      await new Promise((r) => setTimeout(r, 150));
    }
    tool.kill();
    throw upstreamError(NAME, exited ? 'apertium-apy exited at start' : 'apertium-apy did not start in time');
  }

  private runningTool?: Tool;
}

/** A loopback port nothing listens on (APY takes a port number, not a socket). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The engine's Apertium server (one per engine, stopped with it: its scope). */
export function apertiumFor(scope: EngineScope, config: Config, http: HttpClient): ApertiumServer {
  return scope.own('apertium', () => new ApertiumServer(config.env, http), { close: (server) => server.close() });
}
