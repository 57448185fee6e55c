/** The engine latency bench's printed figures. */
import { percentile } from '../e2e/report.js';

export interface Spread {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = Float64Array.from(values.filter((v) => !Number.isNaN(v))).sort();
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : (sorted.at(-1) as number),
  };
}

export const ms = (n: number): string => (Number.isNaN(n) ? '-' : n.toFixed(n < 100 ? 1 : 0));

/** `p50 12.3 / p99 45.6 / max 78.9 ms` */
export const spreadText = (s: Spread): string => `p50 ${ms(s.p50)} / p99 ${ms(s.p99)} / max ${ms(s.max)} ms`;

/** Rows of cells, columns padded to their widest cell, the first left-aligned. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map(
    (r) =>
      `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ')}`,
  );
}

export const tally = (m: ReadonlyMap<string, number>): string =>
  m.size === 0
    ? 'none'
    : [...m]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${n}× ${k}`)
        .join(', ');
