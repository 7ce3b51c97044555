/**
 * Stop waiting for work that cannot itself be cancelled (a Tesseract page, a shared
 * media job) when the caller's signal aborts: the promise rejects with the abort
 * reason at once; the work finishes on its own, its result unused.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined); // its failure, later, is nobody's to report
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
