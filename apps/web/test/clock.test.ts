import { describe, expect, test } from 'vitest';
import { clockFace, clockNotation, formatMs, initialClock, stoppedClock, timeControlText } from '../src/shogi/clock.js';

describe('clock faces', () => {
  const side = { mainMs: 60_000, periodsLeft: 3, periodMs: 10_000 };
  test.each([
    ['main time runs first', 1_000, '0:59', 3, false],
    ['then what is left of the current period', 65_000, '0:05', 3, true],
    ['then whole periods, one after another', 85_000, '0:05', 1, true],
    ['and nothing once every period is used', 95_000, '0:00', 0, true],
  ])('%s', (_name, elapsed, text, periods, byoyomi) => {
    const face = clockFace(side, elapsed, 10_000);
    expect([face.text, face.periods, face.byoyomi]).toEqual([text, periods, byoyomi]);
  });

  test('a clock read inside byoyomi counts from the period time it was read with', () => {
    expect(clockFace({ mainMs: 0, periodsLeft: 2, periodMs: 4_000 }, 1_000, 30_000).text).toBe('0:03');
    expect(clockFace({ mainMs: 0, periodsLeft: 2, periodMs: 4_000 }, 5_000, 30_000)).toMatchObject({
      text: '0:29',
      periods: 1,
    });
  });

  test('formatting and the starting clocks', () => {
    expect(formatMs(3_661_000)).toBe('1:01:01');
    expect(formatMs(59_001)).toBe('1:00'); // a started second is shown whole
    expect(initialClock({ kind: 'unlimited' }, 0)).toBeNull();
    expect(initialClock({ kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 2 }, 0)).toMatchObject({
      sente: { mainMs: 600_000, periodsLeft: 2, periodMs: 30_000 },
      running: null,
      periodLength: 30_000,
    });
  });
});

describe('clocks as players write them', () => {
  test.each([
    ['byoyomi', { kind: 'byoyomi', mainSeconds: 180, byoyomiSeconds: 10, periods: 1 }, '3|10'],
    ['byoyomi with periods', { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 3 }, '10|30×3'],
    ['byoyomi alone', { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 60, periods: 1 }, '0|60'],
    ['Fischer', { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 }, '5+3'],
    ['half a minute', { kind: 'fischer', mainSeconds: 30, incrementSeconds: 0 }, '½+0'],
    ['a minute and a quarter', { kind: 'fischer', mainSeconds: 75, incrementSeconds: 1 }, '1¼+1'],
    ['an odd number of seconds', { kind: 'fischer', mainSeconds: 100, incrementSeconds: 2 }, '1.67+2'],
    ['correspondence', { kind: 'correspondence', daysPerMove: 3 }, '3 days per move'],
    ['no clock', { kind: 'unlimited' }, 'no clock'],
  ] as const)('%s', (_name, tc, text) => {
    expect(clockNotation(tc)).toBe(text);
  });
});

describe('clocks beside a game or an offer: the notation with its kind', () => {
  test.each([
    [{ kind: 'byoyomi', mainSeconds: 180, byoyomiSeconds: 10, periods: 1 }, '3|10 byoyomi'],
    [{ kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 }, '5+3 Fischer'],
    [{ kind: 'correspondence', daysPerMove: 1 }, '1 day per move'],
    [{ kind: 'unlimited' }, 'no clock'],
  ] as const)('%j', (tc, text) => {
    expect(timeControlText(tc)).toBe(text);
  });
});

describe('the clocks at the end of a game', () => {
  const last = { mainMs: 0, periodsLeft: 2, periodMs: 10_000 };
  const full = { mainMs: 60_000, periodsLeft: 2, periodMs: 10_000 };
  const running = { sente: last, gote: full, running: 'sente' as const, since: 1_000, periodLength: 10_000 };

  test('a loss on time shows nothing left, not the whole period the last move left', () => {
    const stopped = stoppedClock(running, 21_000, 'sente');
    expect(stopped.running).toBeNull();
    const face = clockFace(stopped.sente, 0, stopped.periodLength);
    expect([face.text, face.periods]).toEqual(['0:00', 0]);
    expect(clockFace(stopped.gote, 0, 10_000).text).toBe('1:00');
  });

  test('any other ending keeps what the side whose time ran had left when it came', () => {
    const stopped = stoppedClock(running, 4_500, null);
    const face = clockFace(stopped.sente, 0, stopped.periodLength);
    expect([face.text, face.periods]).toEqual(['0:07', 2]);
    // and, stopped, it stays there
    expect(clockFace(stopped.sente, 0, 10_000).text).toBe('0:07');
  });
});
