/**
 * A date range as counter periods (packages/store/src/stats/periods.ts): every day of the
 * range covered exactly once, by as few periods as edge days, edge months and whole years.
 * Pure (no database); here with the other stats tests.
 */
import { describe, expect, test } from 'vitest';
import { periodsIn } from '../../packages/store/src/stats/periods.js';

const DAY = 86_400_000;
const days = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};
const expand = ([grain, first]: [string, string]): string[] => {
  const d = new Date(`${first}T00:00:00Z`);
  if (grain === 'day') return [first];
  const end =
    grain === 'month'
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - DAY
      : Date.UTC(d.getUTCFullYear() + 1, 0, 1) - DAY;
  return days(first, new Date(end).toISOString().slice(0, 10));
};

describe('periodsIn', () => {
  test('no range is the one all period', () => {
    expect(periodsIn(undefined, undefined, '2000-01-01')).toEqual([['all', '1970-01-01']]);
  });

  test('2024-02-10..2026-11-20: 20 days, 10 months, 1 year, 10 months, 20 days', () => {
    const p = periodsIn('2024-02-10', '2026-11-20', '2000-01-01');
    const count = (g: string) => p.filter(([grain]) => grain === g).length;
    expect([count('day'), count('month'), count('year')]).toEqual([40, 20, 1]);
  });

  test.each([
    ['2024-02-29', '2024-02-29'],
    ['2024-01-01', '2024-12-31'],
    ['2023-12-31', '2025-01-01'],
    ['2024-03-01', '2024-03-31'],
    ['2006-04-28', '2020-07-24'],
    ['2025-02-01', '2025-01-31'],
  ])('%s..%s covers each day once', (from, to) => {
    const covered = periodsIn(from, to, '2000-01-01').flatMap(expand);
    expect(covered).toEqual(days(from, to));
  });

  test('open at the start: from the earliest counted day', () => {
    expect(periodsIn(undefined, '2018-05-04', '2018-05-03')).toEqual([
      ['day', '2018-05-03'],
      ['day', '2018-05-04'],
    ]);
  });
});
