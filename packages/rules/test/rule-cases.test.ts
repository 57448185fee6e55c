import { describe, expect, test } from 'vitest';
import { formatUsi, type IllegalReason, legalMoves, moveIllegality, parseSfen, parseUsi } from '../src/index.js';
import { fixture, type RuleCase } from './fixtures.js';

// rule-cases.json: written from RULES.md, each case agreed by two public shogi libraries.
const cases = fixture<RuleCase[]>('rule-cases.json');

/** The reason code each family of illegal case must report (by id prefix). */
const EXPECTED_REASON: Record<string, IllegalReason> = {
  uchi: 'uchifuzume',
  'ext-uchi': 'uchifuzume',
  nifu: 'nifu',
  dead: 'dead_drop',
  force: 'must_promote',
  promo: 'cannot_promote',
  pin: 'leaves_king_in_check',
  check: 'leaves_king_in_check',
  occ: 'drop_on_occupied',
  hand: 'piece_not_in_hand',
};

describe('rule cases', () => {
  test.each(cases)('$id: $move is legal=$legal ($reason)', (c) => {
    const pos = parseSfen(c.sfen);
    if (!pos.ok) throw new Error(pos.error.message);
    const m = parseUsi(c.move);
    expect(m).toBeGreaterThanOrEqual(0);
    const reason = moveIllegality(pos.value, m);
    const generated = legalMoves(pos.value).map(formatUsi);
    if (c.legal) {
      expect(reason).toBeNull();
      expect(generated).toContain(c.move);
    } else {
      expect(reason).toBe(EXPECTED_REASON[c.id.replace(/-\d+$/, '')]);
      expect(generated).not.toContain(c.move);
    }
  });
});
