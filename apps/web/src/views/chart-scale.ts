/**
 * Axis ticks for the charts: "nice" round steps (1, 2 or 5 times a power of ten), so a count
 * axis reads 0, 5, 10, 15 rather than 0, 3.4, 6.8, and a histogram labels every k-th bucket
 * evenly rather than wherever a label happens to fit. Pure: no DOM.
 */

/** A round step of at least `raw`: 1, 2 or 5 times a power of ten. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** Ticks from 0 to at least `max`, about `count` of them, on whole numbers (counts). */
export function countTicks(max: number, count = 5): number[] {
  const step = Math.max(1, niceStep(Math.max(1, max) / count));
  const top = Math.ceil(Math.max(1, max) / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}

/**
 * Which of `n` buckets get a label when at most `room` labels fit: every k-th, k a round
 * number (1, 2, 5, 10…), starting from the first, so the labelled values are evenly spaced.
 */
export function labelEvery(n: number, room: number): number {
  if (n <= Math.max(1, room)) return 1;
  return niceStep(n / Math.max(1, room));
}
