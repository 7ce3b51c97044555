/**
 * Preload (`node --import`) that records the URL of every module the process loads,
 * through a module loader hook, and at the first server's `listen()` call writes the URLs
 * loaded so far to $RECORD_LOADS_FILE: what boot's own imports loaded, before any request.
 * test/engine/boot.test.ts uses it to check that heavy packages load on first use. At the
 * call, not at its `listening` event: the features start right after the call (main.ts), and
 * whether their first database use loads Kysely before the socket is bound is a race that
 * Node 24 often wins.
 */
import fs from 'node:fs';
import net from 'node:net';
import { register } from 'node:module';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';

const loaded = [];
const { port1, port2 } = new MessageChannel();
port1.unref();
register('./record-loads-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const listen = net.Server.prototype.listen;
let written = false;
net.Server.prototype.listen = function (...args) {
  if (!written) {
    written = true;
    // every URL the hook thread has posted so far, synchronously
    for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) loaded.push(m.message);
    fs.writeFileSync(process.env.RECORD_LOADS_FILE, JSON.stringify(loaded));
  }
  return listen.apply(this, args);
};
