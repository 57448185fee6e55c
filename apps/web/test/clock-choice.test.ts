import { describe, expect, test } from 'vitest';
import { type ClockFields, clockChoice, DEFAULT_FIELDS } from '../src/shogi/clock-choice.js';

const fields = (over: Partial<ClockFields>): ClockFields => ({ ...DEFAULT_FIELDS, ...over });

describe('the clock a challenge asks for', () => {
  test.each([
    ['byoyomi', fields({}), { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 }],
    [
      'byoyomi only, several periods',
      fields({ minutes: '0', byoyomi: '60', periods: '3' }),
      { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 60, periods: 3 },
    ],
    [
      'fischer',
      fields({ kind: 'fischer', minutes: ' 3 ' }),
      { kind: 'fischer', mainSeconds: 180, incrementSeconds: 5 },
    ],
    [
      'fischer without increment',
      fields({ kind: 'fischer', increment: '0' }),
      { kind: 'fischer', mainSeconds: 600, incrementSeconds: 0 },
    ],
    ['correspondence', fields({ kind: 'correspondence', days: '14' }), { kind: 'correspondence', daysPerMove: 14 }],
    // the fields of the other kinds are not read
    ['no clock', fields({ kind: 'unlimited', minutes: 'x' }), { kind: 'unlimited' }],
  ])('%s', (_name, f, expected) => {
    expect(clockChoice(f, false)).toEqual({ ok: true, timeControl: expected });
  });

  test.each([
    ['a fraction', fields({ minutes: '2.5' }), /whole number/],
    ['an empty field', fields({ byoyomi: '' }), /whole number/],
    ['a negative number', fields({ kind: 'fischer', increment: '-1' }), /whole number/],
    ['too much main time', fields({ minutes: '181' }), /Main time \(minutes\) must be 0 to 180/],
    ['a byoyomi too long', fields({ byoyomi: '601' }), /must be 0 to 600/],
    ['six periods', fields({ periods: '6' }), /Periods must be 1 to 5/],
    ['a zero byoyomi', fields({ byoyomi: '0' }), /Fischer/],
    ['no time at all', fields({ kind: 'fischer', minutes: '0', increment: '0' }), /both zero/],
    ['an increment too long', fields({ kind: 'fischer', increment: '181' }), /0 to 180/],
    ['fifteen days', fields({ kind: 'correspondence', days: '15' }), /1 to 14/],
  ])('refuses %s', (_name, f, error) => {
    const choice = clockChoice(f, false);
    expect(choice.ok).toBe(false);
    if (!choice.ok) expect(choice.error).toMatch(error);
  });

  test('a rated game needs a clock', () => {
    expect(clockChoice(fields({ kind: 'unlimited' }), true)).toEqual({
      ok: false,
      error: 'A rated game needs a clock.',
    });
    expect(clockChoice(fields({}), true).ok).toBe(true);
  });
});
