/**
 * How late this process's event loop has been: the sum of the lateness of a timer
 * that asks to run every SAMPLE_MS. A wait that timed out while the loop itself was
 * late (a busy process, or one the OS left unscheduled on a loaded machine) says
 * nothing about what it waited for: the answer may have been in the socket, unread.
 * A Redis command's deadline is measured against this (redis.ts), so a slow loop
 * neither fails commands early nor opens the circuit.
 *
 * perf_hooks.monitorEventLoopDelay gives a histogram of the same lateness, but no
 * total over a span of time, which is what a deadline needs.
 */

/** Lateness below this is the loop's ordinary jitter, not lag. */
const SAMPLE_MS = 20;

let users = 0;
let timer: NodeJS.Timeout | undefined;
let last = 0;
/** Lateness summed over every sample so far, in ms. */
let total = 0;

function tick(): void {
  const now = performance.now();
  total += Math.max(0, now - last - SAMPLE_MS);
  last = now;
}

/** Start sampling (shared by every user in the process); call the function returned to stop. */
export function watchLoopLag(): () => void {
  if (users++ === 0) {
    last = performance.now();
    // unref: sampling never keeps a process alive
    timer = setInterval(tick, SAMPLE_MS).unref();
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--users === 0) clearInterval(timer);
  };
}

/**
 * Lag so far, in ms, including the sample now overdue; the difference of two readings
 * is how late the loop was between them. Zero growth while nobody watches.
 */
export function loopLagReading(): number {
  if (users === 0) return total;
  return total + Math.max(0, performance.now() - last - SAMPLE_MS);
}
