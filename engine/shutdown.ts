/**
 * Process-wide resources (worker pools) register how to stop them when they start,
 * so an engine's close() stops what was started without loading what never was
 * (importing the render pool to close it would load Skia and sharp at boot).
 */
const closers = new Set<() => Promise<void>>();

export function onShutdown(close: () => Promise<void>): void {
  closers.add(close);
}

export async function shutdownAll(): Promise<void> {
  const all = [...closers];
  closers.clear();
  await Promise.allSettled(all.map((close) => close()));
}
