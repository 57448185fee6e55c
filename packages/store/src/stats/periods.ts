/**
 * A date range as the fewest counter periods (migration 0005): edge days, edge months and
 * whole years; no range is the one 'all' period. Pure, on UTC days 'YYYY-MM-DD'.
 */
import { ALL_PERIOD } from './rows.js';
import type { Grain } from './schema.js';

const DAY = 86_400_000;
const parse = (d: string): number => Date.parse(`${d}T00:00:00Z`);
const format = (t: number): string => new Date(t).toISOString().slice(0, 10);
const endOfMonth = (t: number): number => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - DAY;
};
const endOfYear = (t: number): number => Date.UTC(new Date(t).getUTCFullYear() + 1, 0, 1) - DAY;

/** Periods covering exactly [from, to] (inclusive); `from` defaults to `earliest`. */
export function periodsIn(from: string | undefined, to: string | undefined, earliest: string): [Grain, string][] {
  if (from === undefined && to === undefined) return [['all', ALL_PERIOD]];
  let cur = parse(from ?? earliest);
  const last = to === undefined ? parse('9999-12-31') : parse(to);
  const out: [Grain, string][] = [];
  // open-ended to: everything from the first whole year on is one 'year' row per year up to now
  const stop = Math.min(last, endOfYear(Date.now()) + DAY * 366);
  while (cur <= stop) {
    const d = new Date(cur);
    const first = d.getUTCDate() === 1;
    if (first && d.getUTCMonth() === 0 && endOfYear(cur) <= last) {
      out.push(['year', format(cur)]);
      cur = endOfYear(cur) + DAY;
    } else if (first && endOfMonth(cur) <= last) {
      out.push(['month', format(cur)]);
      cur = endOfMonth(cur) + DAY;
    } else {
      out.push(['day', format(cur)]);
      cur += DAY;
    }
  }
  return out;
}
