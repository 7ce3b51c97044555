import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import sharp from 'sharp';
import { createSsrfGuard } from '../../engine/platform/http/ssrf-guard.js';
import screenshot from '../../engine/kinds/handlers/tools/screenshot.js';
import { FileOutput } from '../../engine/contract/file-output.js';
import { EngineScope } from '../../engine/platform/scope.js';

const CHROMIUM = '/usr/bin/chromium';

/** A local server; `hits` records every path requested from it. */
async function server(host: string, page: (port: number) => string) {
  const hits: string[] = [];
  const s = http.createServer((req, res) => {
    hits.push(req.url!);
    res.writeHead(200, { 'content-type': 'text/html' }).end(page((s.address() as AddressInfo).port));
  });
  await new Promise<void>((resolve) => s.listen(0, host, resolve));
  return { port: (s.address() as AddressInfo).port, hits, close: () => new Promise((r) => s.close(r)) };
}

// no teardown closes the browser: it must close itself when idle, or this file would never exit
t.test(
  'screenshots in Chromium, with the SSRF guard on the page’s own requests',
  { skip: !fs.existsSync(CHROMIUM) && 'Debian chromium is not installed' },
  async (t) => {
    // the "internal" service lives on 127.0.0.2; only 127.0.0.1 (the page) is allowed
    const internal = await server('127.0.0.2', () => 'secret');
    const site = await server(
      '127.0.0.1',
      () =>
        `<body style="margin:0;background:#ff0000"><div style="height:3000px"></div>
     <img src="http://127.0.0.2:${internal.port}/img.png">
     <script>fetch('http://127.0.0.2:${internal.port}/fetch').catch(() => {}); new WebSocket('ws://127.0.0.2:${internal.port}/ws');</script></body>`,
    );
    t.teardown(async () => {
      await internal.close();
      await site.close();
    });
    const guard = createSsrfGuard({ allowPrivate: false, addressProblem: (ip) => (ip === '127.0.0.1' ? undefined : 'private address') });
    // an engine's scope, never closed here: the browser must close itself when its last job ends
    const setup = { http: { guard }, config: { env: {} }, scope: new EngineScope() } as any;
    const shoot = (params: Record<string, unknown>, options: Record<string, unknown> = {}) =>
      screenshot({
        params: { url: `http://127.0.0.1:${site.port}/`, format: 'png', delay: 300, fullPage: false, hosted: false, ...params },
        options,
        call: { signal: new AbortController().signal } as any,
        setup,
      }) as Promise<FileOutput>;

    const shot = await shoot({});
    t.type(shot, FileOutput);
    const meta = await sharp(shot.data).metadata();
    t.same([meta.format, meta.width, meta.height], ['png', 1280, 800], 'desktop viewport');
    const { data } = await sharp(shot.data).raw().toBuffer({ resolveWithObject: true });
    t.same([...data.subarray(0, 3)], [255, 0, 0], 'the page was rendered');
    t.same(internal.hits, [], 'no sub-request, fetch or WebSocket reached the private address');

    const full = await sharp((await shoot({ fullPage: true })).data).metadata();
    t.ok(full.height! >= 3000, 'full page is taller than the viewport');
    const phone = await sharp((await shoot({}, { device: 'phone' })).data).metadata();
    t.equal(phone.width, 780, 'phone viewport (390 CSS px) at device scale 2');
    const jpeg = await shoot({ format: 'jpeg', width: 800, height: 600 });
    t.equal(jpeg.contentType, 'image/jpeg');
    t.same([(await sharp(jpeg.data).metadata()).width], [800]);

    await t.rejects(shoot({ url: `http://127.0.0.2:${internal.port}/` }), { status: 400, code: 'unsupported_url' }, 'a private page URL is refused up front');
    t.same(internal.hits, []);
  },
);
