/** `n` pseudo-random words from `seed` (a fixed LCG: the same text on every run), for texts that differ everywhere. */
export const words = (n: number, seed: number) => {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(x.toString(36).slice(0, 3 + (x % 6)));
  }
  return out.join(' ');
};
