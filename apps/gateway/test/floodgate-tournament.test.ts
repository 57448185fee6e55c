import { byoyomi } from '@shogi/game';
import { START_SFEN } from '@shogi/rules';
import { validateTerms } from '@shogi/tournament';
import { describe, expect, it } from 'vitest';
import { floodgateRoundNumber, floodgateTerms, floodgateTournamentId } from '../src/csa/floodgate-tournament.js';
import type { Proposal, WaitingEntry } from '../src/csa/pairing-store.js';

const entry = (name: string): WaitingEntry => ({
  sessionId: name,
  gatewayId: 'g',
  playerId: `id-${name}`,
  name,
  side: null,
  trip: true,
  rating: 1500,
});
const at = Date.parse('2026-12-07T10:30:00.000Z');
const proposal: Proposal = {
  gameId: 'game',
  gameName: 'floodgate-300-10',
  timeControl: byoyomi(300, 10),
  handicap: null,
  initialSfen: START_SFEN,
  maxMoves: 256,
  rated: true,
  sente: entry('a'),
  gote: entry('b'),
  round: { at, number: floodgateRoundNumber(at, 30 * 60_000) },
};

describe('Floodgate tournaments', () => {
  it('one id per game name and UTC day, the same on every gateway', () => {
    const id = floodgateTournamentId('floodgate-300-10', at);
    expect(id).toMatch(/^fg[0-9a-f]{16}$/);
    expect(floodgateTournamentId('floodgate-300-10', Date.parse('2026-12-07T23:59:59Z'))).toBe(id);
    expect(floodgateTournamentId('floodgate-300-10', Date.parse('2026-12-08T00:00:00Z'))).not.toBe(id);
    expect(floodgateTournamentId('floodgate-600-10', at)).not.toBe(id);
  });

  it('numbers the rounds of the day from 1', () => {
    expect(floodgateRoundNumber(Date.parse('2026-12-07T00:00:00Z'), 30 * 60_000)).toBe(1);
    expect(proposal.round?.number).toBe(22);
  });

  it('terms the aggregate takes: the game name, its clock, until midnight UTC', () => {
    const now = at + 5000;
    const terms = floodgateTerms(proposal, now);
    expect(validateTerms(terms, new Date(now))).toBeNull();
    expect(terms).toMatchObject({ format: 'floodgate', name: 'floodgate-300-10', rated: true, berserkable: false });
    expect(Date.parse(terms.startsAt) + terms.minutes * 60_000).toBeGreaterThanOrEqual(
      Date.parse('2026-12-08T00:00:00Z'),
    );
    expect(terms.minutes).toBeLessThanOrEqual(1440);
  });
});
