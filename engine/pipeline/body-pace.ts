import type { IncomingMessage } from 'node:http';
import { requestTimeout, type ApiError } from '../core/errors.js';
import { loopLagReading, watchLoopLag } from '../core/loop-lag.js';

/** How fast a body must keep coming: BODY_IDLE_TIMEOUT_MS and BODY_MIN_RATE (0 turns either off). */
export interface BodyPace {
  idleMs: number;
  /** Bytes a second, on average, once the first `idleMs` have passed. */
  minRate: number;
}

/**
 * Watch a request body while it is read and call `onTooSlow` (once) when it falls behind
 * its pace; returns the function that stops watching.
 *
 * Two rules. No pause longer than `idleMs`: the socket's idle timer, which Node's HTTP
 * parser refreshes on every chunk. And no crawl: a client sending one byte every few
 * seconds never pauses that long, yet holds a connection and a parser for the whole
 * REQUEST_TIMEOUT_MS — a thousand of them exhaust the descriptors. So every window of
 * `idleMs` must bring at least `minRate` bytes a second on average (the minimum data
 * rate of Kestrel and mod_reqtimeout, judged per window rather than since the start, so
 * that a fast first megabyte does not buy a long crawl after it). An honest upload on a
 * slow mobile link, pauses included, stays far above it; a trickle is cut off within two
 * windows.
 *
 * Bytes are read from the socket's counter (`bytesRead`), not from 'data' listeners: a
 * listener of our own would switch the body stream to flowing before its parser is
 * attached, and bytes would be lost. One timer per body, firing once a window.
 *
 * A loaded process is not a slow client: when this process's event loop was late, bytes
 * may be waiting in the socket unread. So an idle verdict waits for the next turn's I/O
 * (setImmediate runs after the poll phase that reads them), and a window in which the
 * loop lost more than half its time is not judged (engine/core/loop-lag.ts).
 */
export function watchBodyPace(req: IncomingMessage, pace: BodyPace, onTooSlow: (error: ApiError) => void): () => void {
  const { socket } = req;
  let stopped = false;
  const unwatchLag = watchLoopLag();
  const onIdle = () => {
    const before = socket.bytesRead;
    setImmediate(() => {
      if (stopped) return;
      // bytes that sat unread while the loop was busy arrived in this turn's poll: not idle
      if (socket.bytesRead > before) req.setTimeout(pace.idleMs, onIdle);
      else fail(requestTimeout(`No part of the request body arrived for ${pace.idleMs} ms`));
    });
  };
  const fail = (error: ApiError) => {
    if (stopped) return;
    stop();
    onTooSlow(error);
  };
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    stopped = true;
    unwatchLag();
    clearInterval(timer);
    req.setTimeout(0);
    req.off('timeout', onIdle);
  };
  if (pace.idleMs) req.setTimeout(pace.idleMs, onIdle);
  if (pace.minRate && pace.idleMs) {
    const least = (pace.minRate * pace.idleMs) / 1000;
    let counted = socket.bytesRead;
    let lag = loopLagReading();
    timer = setInterval(() => {
      const arrived = socket.bytesRead - counted;
      const lagNow = loopLagReading();
      const lost = lagNow - lag;
      counted = socket.bytesRead;
      lag = lagNow;
      if (lost > pace.idleMs / 2) return; // the loop, not the client, was slow in this window
      if (arrived < least) fail(requestTimeout(`The request body arrived slower than ${pace.minRate} bytes a second (BODY_MIN_RATE)`));
    }, pace.idleMs);
  }
  return stop;
}
