import { describe, expect, it } from 'vitest';
import { dueOccurrences, nextStart, occurrenceId, parseSchedule } from '../src/tournaments/schedule.js';

const T = (iso: string) => Date.parse(iso);
const hourly = { every: 'hourly', at: ':30', name: 'Hourly blitz', clockTime: 3, clockIncrement: 2, minutes: 27 };
const daily = { every: 'daily', at: '18:00', name: 'Daily rapid', clockTime: 10, clockByoyomi: 10, minutes: 90 };

describe('the tournament schedule', () => {
  it('reads hourly and daily entries, lichess’s parameters kept for the tournament', () => {
    const [h, d] = parseSchedule(JSON.stringify([hourly, { ...daily, aheadMinutes: 120 }]));
    expect(h).toMatchObject({ every: 'hourly', atMinutes: 30, aheadMinutes: 60 });
    expect(h?.params).toEqual({ name: 'Hourly blitz', clockTime: 3, clockIncrement: 2, minutes: 27 });
    expect(d).toMatchObject({ every: 'daily', atMinutes: 18 * 60, aheadMinutes: 120 });
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['not an array', '{}', /JSON array/],
    ['an unknown recurrence', JSON.stringify([{ ...hourly, every: 'weekly' }]), /entry 1: "every"/],
    ['an hourly time with hours', JSON.stringify([{ ...hourly, at: '10:30' }]), /":MM"/],
    ['a daily time without hours', JSON.stringify([{ ...daily, at: ':30' }]), /"HH:MM"/],
    ['minute 60', JSON.stringify([{ ...hourly, at: ':60' }]), /":MM"/],
    ['no name', JSON.stringify([{ every: 'hourly' }]), /"name" is required/],
    ['a start of its own', JSON.stringify([{ ...hourly, startDate: 1 }]), /schedule's/],
    ['ahead too far', JSON.stringify([{ ...hourly, aheadMinutes: 5000 }]), /aheadMinutes/],
    ['an arena too short for its clock', JSON.stringify([{ ...hourly, minutes: 2 }]), /too short/],
    ['a bad clock', JSON.stringify([{ ...hourly, clockTime: 'x' }]), /clockTime must be a number/],
  ])('refuses %s, saying what is wrong', (_what, text, message) => {
    expect(() => parseSchedule(text)).toThrow(message);
  });

  it('puts each start at the entry’s time, always after now', () => {
    const [h, d] = parseSchedule(JSON.stringify([hourly, daily]));
    if (h === undefined || d === undefined) throw new Error('no entries');
    expect(nextStart(h, T('2026-12-07T10:29:59Z'))).toBe(T('2026-12-07T10:30:00Z'));
    expect(nextStart(h, T('2026-12-07T10:30:00Z'))).toBe(T('2026-12-07T11:30:00Z'));
    expect(nextStart(d, T('2026-12-07T10:00:00Z'))).toBe(T('2026-12-07T18:00:00Z'));
    expect(nextStart(d, T('2026-12-07T18:00:01Z'))).toBe(T('2026-12-08T18:00:00Z'));
  });

  it('makes an occurrence once it is at most aheadMinutes away, under one id per start', () => {
    const [h, d] = parseSchedule(JSON.stringify([{ ...hourly, aheadMinutes: 10 }, daily]));
    if (h === undefined || d === undefined) throw new Error('no entries');
    expect(dueOccurrences([h, d], T('2026-12-07T10:19:59Z'))).toEqual([]);
    const due = dueOccurrences([h, d], T('2026-12-07T10:20:00Z'));
    expect(due).toEqual([
      { id: occurrenceId(h, T('2026-12-07T10:30:00Z')), event: h, startsAt: T('2026-12-07T10:30:00Z') },
    ]);
    // the same occurrence a minute later: the same id; the next hour's another
    expect(dueOccurrences([h], T('2026-12-07T10:21:00Z'))[0]?.id).toBe(due[0]?.id);
    expect(occurrenceId(h, T('2026-12-07T11:30:00Z'))).not.toBe(due[0]?.id);
    expect(due[0]?.id).toMatch(/^sc[0-9a-f]{16}$/);
    expect(dueOccurrences([d], T('2026-12-07T17:00:00Z')).map((o) => o.startsAt)).toEqual([T('2026-12-07T18:00:00Z')]);
  });
});
