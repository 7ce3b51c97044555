/** Loader hooks of record-loads.mjs: tell the main thread each URL loaded. */
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  port.postMessage(url);
  return nextLoad(url, context);
}
