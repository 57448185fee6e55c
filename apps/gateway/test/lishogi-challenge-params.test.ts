/**
 * lishogi's challenge parameters (its API reference's `challengeCreate`) read into this
 * server's terms: form strings and JSON values alike, the clock flat or nested, and what is
 * refused with which catalog code.
 */
import { describe, expect, test } from 'vitest';
import { type LishogiChallengeParams, parseChallengeParams } from '../src/lishogi/challenge-params.js';

const ok = (params: LishogiChallengeParams) => {
  const parsed = parseChallengeParams(params);
  if (!parsed.ok) throw new Error(`${parsed.code}: ${parsed.detail}`);
  return parsed.value;
};
const refusal = (params: LishogiChallengeParams) => {
  const parsed = parseChallengeParams(params);
  return parsed.ok ? null : parsed.code;
};

describe('time controls', () => {
  test.each<[string, LishogiChallengeParams, unknown]>([
    ['nothing: unlimited', {}, { kind: 'unlimited' }],
    [
      'byoyomi from a form',
      { 'clock.limit': '600', 'clock.byoyomi': '30', 'clock.periods': '2' },
      { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 2 },
    ],
    [
      'byoyomi without periods: one (Lishogi-Bot challenges the AI so)',
      { 'clock.limit': 60, 'clock.byoyomi': 2 },
      { kind: 'byoyomi', mainSeconds: 60, byoyomiSeconds: 2, periods: 1 },
    ],
    [
      'an increment: Fischer',
      { 'clock.limit': '300', 'clock.increment': '3', 'clock.byoyomi': '0', 'clock.periods': '1' },
      { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 },
    ],
    [
      'a nested JSON clock',
      { clock: { limit: 180, increment: 2 } },
      { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 },
    ],
    ['days: correspondence', { days: '3' }, { kind: 'correspondence', daysPerMove: 3 }],
  ])('%s', (_name, params, timeControl) => {
    expect(ok(params).timeControl).toEqual(timeControl);
  });

  test.each<[string, LishogiChallengeParams, string]>([
    ['a limit out of lishogi’s range', { 'clock.limit': '10801' }, 'INVALID_TIME_CONTROL'],
    ['a fraction', { 'clock.limit': '1.5' }, 'INVALID_TIME_CONTROL'],
    ['a word', { 'clock.limit': 'ten' }, 'INVALID_TIME_CONTROL'],
    ['a negative number', { 'clock.limit': -5 }, 'INVALID_TIME_CONTROL'],
    ['six periods', { 'clock.limit': '60', 'clock.byoyomi': '10', 'clock.periods': '6' }, 'INVALID_TIME_CONTROL'],
    [
      'an increment and byoyomi',
      { 'clock.limit': '60', 'clock.byoyomi': '10', 'clock.increment': '5' },
      'INVALID_TIME_CONTROL',
    ],
    ['a clock without a limit', { 'clock.increment': '5' }, 'INVALID_TIME_CONTROL'],
    ['a clock and days', { 'clock.limit': '60', days: '2' }, 'BAD_REQUEST'],
    ['fifteen days', { days: 15 }, 'INVALID_TIME_CONTROL'],
  ])('%s is refused (%s)', (_name, params, code) => {
    expect(refusal(params)).toBe(code);
  });
});

describe('the other terms', () => {
  test('defaults: casual, random colour, the standard start', () => {
    expect(ok({})).toEqual({ timeControl: { kind: 'unlimited' }, rated: false, color: 'random' });
  });

  test('rated and the colour, from a form or JSON', () => {
    expect(ok({ rated: 'true', color: 'gote' })).toMatchObject({ rated: true, color: 'gote' });
    expect(ok({ rated: true, color: 'sente' })).toMatchObject({ rated: true, color: 'sente' });
    expect(ok({ rated: 'false' }).rated).toBe(false);
  });

  test('an SFEN is passed on (the lobby checks it); the standard start named is none', () => {
    expect(ok({ sfen: '4k4/9/9/9/9/9/9/9/4K4 b G 1' }).sfen).toBe('4k4/9/9/9/9/9/9/9/4K4 b G 1');
    expect(ok({ sfen: 'startpos' })).not.toHaveProperty('sfen');
  });

  test.each<[string, LishogiChallengeParams, string]>([
    ['another variant', { variant: 'minishogi' }, 'UNSUPPORTED_VARIANT'],
    ['a colour lishogi does not have', { color: 'black' }, 'BAD_REQUEST'],
    ['rated as a word', { rated: 'yes' }, 'BAD_REQUEST'],
    ['a stream kept alive', { keepAliveStream: 'true' }, 'BAD_REQUEST'],
    ['an acceptance by token', { acceptByToken: 'lip_x' }, 'BAD_REQUEST'],
    ['an SFEN too long', { sfen: 'x'.repeat(201) }, 'INVALID_SFEN'],
  ])('%s is refused (%s)', (_name, params, code) => {
    expect(refusal(params)).toBe(code);
  });

  test('standard and keepAliveStream=false are fine', () => {
    expect(refusal({ variant: 'standard', keepAliveStream: 'false' })).toBeNull();
  });
});
