/**
 * What the lobby refuses before it reads anything (src/domain/lobby/checks.ts): a challenge's
 * custom position, checked as @shogi/game's decide checks a game's when it is created.
 */
import { HANDICAP_SFENS, START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../src/domain/api-error.js';
import { checkSetup } from '../src/domain/lobby/checks.js';

const code = (run: () => unknown) => {
  try {
    run();
    return 'OK';
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
};

const custom = '4k4/9/9/9/9/9/9/9/4K4 b 2G 1';

describe('a challenge’s position', () => {
  test('none, or the standard start under any move number, is none', () => {
    expect(checkSetup({ rated: true })).toBeNull();
    expect(checkSetup({ sfen: START_SFEN, rated: true })).toBeNull();
    expect(checkSetup({ sfen: START_SFEN.replace(/ 1$/, ' 7'), rated: true })).toBeNull();
  });

  test('a custom one is kept, normalized, for a casual game', () => {
    expect(checkSetup({ sfen: custom, rated: false })).toBe(custom);
  });

  test.each([
    ['malformed', { sfen: 'not a position', rated: false }, 'INVALID_SFEN'],
    ['with a handicap', { sfen: custom, handicap: 'bishop', rated: false }, 'INVALID_SETUP'],
    ['rated', { sfen: custom, rated: true }, 'RATED_NEEDS_STANDARD_START'],
    [
      'a handicap’s position given as an SFEN, rated',
      { sfen: HANDICAP_SFENS.bishop, rated: true },
      'RATED_NEEDS_STANDARD_START',
    ],
  ])('%s: %s', (_name, setup, expected) => {
    expect(code(() => checkSetup(setup))).toBe(expected);
  });
});
