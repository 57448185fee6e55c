/**
 * A Swiss's standings from its TRF: points, then FIDE C.07 tie-breaks (`@shogi/swiss`) in
 * lichess's Swiss order where they exist: Sonneborn-Berger first (lichess `SwissSheet`'s one
 * tie-break), then Buchholz cut 1 and Buchholz; the pairing number last.
 */
import { parseTrf, standings, type TieBreak, tournamentAfterRound } from '@shogi/swiss';
import type { TournamentState } from './state.js';
import { swissTrf } from './swiss-trf.js';

export const SWISS_TIE_BREAKS: readonly TieBreak[] = ['sonneborn-berger', 'buchholz-cut1', 'buchholz'];

export interface SwissStanding {
  readonly rank: number;
  readonly playerId: string;
  /** Points (1 a win or a bye, ½ a draw). */
  readonly points: number;
  /** Each of `SWISS_TIE_BREAKS`, in points. */
  readonly tieBreaks: Readonly<Record<TieBreak, number>>;
}

export function swissStandingsOf(state: TournamentState): SwissStanding[] {
  const { text, ids } = swissTrf(state);
  const file = parseTrf(text);
  const rounds = file.players.reduce((n, p) => Math.max(n, p.matches.length), 0);
  const t = tournamentAfterRound(file, rounds, 'w');
  // a player with no round yet (joined late, before their first) is ranked after those with one
  const ranked = standings(t, SWISS_TIE_BREAKS, rounds);
  const seen = new Set(ranked.map((r) => r.id));
  const rest = ids.map((_, i) => i).filter((i) => !seen.has(i));
  const out = new Set([...state.players.values()].filter((p) => p.ejected === true).map((p) => p.id));
  // an ejected player is in no standings: the others' ranks close up, their points and tie-breaks stay
  const rows = [...ranked, ...rest.map((id) => ({ id, score: 0, tieBreaks: SWISS_TIE_BREAKS.map(() => 0) }))].filter(
    (r) => !out.has(ids[r.id] ?? ''),
  );
  return rows.map((r, i) => ({
    rank: i + 1,
    playerId: ids[r.id]!,
    points: r.score / 10,
    tieBreaks: Object.fromEntries(SWISS_TIE_BREAKS.map((tb, k) => [tb, (r.tieBreaks[k] ?? 0) / 10])) as Record<
      TieBreak,
      number
    >,
  }));
}
