import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../engine/platform/config.js';
import { createEngine, type Engine, type EngineOptions } from '../../engine/app/app.js';
import { silentLogger } from '../../engine/platform/log.js';
import { createHttpServer } from '../../engine/app/http-server.js';

export const TEST_KEY = 'conformance-test-key';

/** A running engine on a random loopback port, with a throwaway DATA_DIR. */
export interface Served {
  engine: Engine;
  url: string;
  close(): Promise<void>;
}

export function tempDataDir(prefix = 'manifold-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function serve(env: Record<string, string | undefined>, options: Omit<EngineOptions, 'config'> = {}): Promise<Served> {
  const configFor = (publicBaseUrl?: string) =>
    loadConfig({
      TEST_API_KEY: TEST_KEY,
      DATA_DIR: dataDir,
      LOG_REQUESTS: '0',
      TEST_KEY_RPM: '1000000',
      ALLOW_PRIVATE_URLS: '1',
      PUBLIC_BASE_URL: publicBaseUrl,
      PATH: process.env.PATH,
      ...env,
    });
  const dataDir = env.DATA_DIR ?? tempDataDir();
  // the server npm start runs (timeouts, clientError envelopes); listening first so
  // PUBLIC_BASE_URL (used in links the engine hands out) is the real address
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createHttpServer(configFor(), (req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let engine: Engine;
  try {
    engine = createEngine({ logger: silentLogger, ...options, config: configFor(url) });
  } catch (err) {
    // a setting the boot refuses: the listening server would keep the test process alive for ever
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    throw err;
  }
  handler = engine.app.callback();
  return {
    engine,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await engine.close();
    },
  };
}
