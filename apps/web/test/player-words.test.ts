import { ERROR_CODES, ERRORS } from '@shogi/protocol';
import { ILLEGAL_REASONS } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { errorSentence, failureSentence } from '../src/words/errors.js';
import { illegalTyped, moveRefused, reasonClause } from '../src/words/refusals.js';

// what a player must never read: the catalog's codes, HTTP headers, routes, tokens, rule ids
const JARGON = /_|Retry-After|header|\/api\/|token|scope|endpoint|USI|SFEN|ply|route/i;

describe("the page's messages are a player's sentences", () => {
  test('every rules reason reads as words, never as its code', () => {
    for (const reason of ILLEGAL_REASONS) {
      expect(reasonClause(reason), reason).not.toMatch(JARGON);
      expect(reasonClause(reason)).not.toBe(reason);
    }
    expect(illegalTyped('7g7e', 'illegal_piece_move')).toBe('You cannot play 7g7e: that piece cannot move there.');
    expect(moveRefused('2c2d', 'timeout')).toBe('Your move 2c2d was not played: your time had run out.');
  });

  test("every error the server can answer reads as a sentence, none of the catalog's API wording", () => {
    for (const code of ERROR_CODES) {
      const text = errorSentence(ERRORS[code].status, { code });
      expect(text, code).not.toMatch(JARGON);
      expect(text, code).toMatch(/^[A-Z].*\.$/);
    }
    expect(errorSentence(429, { code: 'RATE_LIMITED' })).toBe(
      'You are going too fast: wait a few seconds and try again.',
    );
    expect(errorSentence(422, { code: 'ILLEGAL_MOVE', detail: 'nifu' })).toBe(
      'This move is not allowed: you already have a pawn on that file (nifu).',
    );
    // the refusals a player meets in the lobby and the import page have their own sentence
    for (const code of [
      'RATED_PAIR_LIMIT',
      'TOO_MANY_RECORDS',
      'IMPORT_QUOTA_EXCEEDED',
      'MALFORMED_MULTIPART',
    ] as const)
      expect(errorSentence(ERRORS[code].status, { code }), code).not.toBe('This could not be done.');
    // a code this client does not know yet still reads as a sentence
    expect(errorSentence(409, { code: 'SOMETHING_NEW' as 'CONFLICT' })).toBe('This could not be done.');
  });

  test('a request that never reached the server says so', () => {
    expect(failureSentence(new TypeError('Failed to fetch'))).toBe(
      'The server cannot be reached: check your connection and try again.',
    );
  });
});
