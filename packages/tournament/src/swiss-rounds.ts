/** A Swiss's rounds as the state holds them: the last paired, and when the next is due. */
import type { TournamentState } from './state.js';

/** The last round paired so far (0 before the first): its games' or its byes', or the imported TRF's. */
export function currentSwissRound(state: TournamentState): number {
  let round = state.swissImport?.rounds ?? 0;
  for (const p of state.pairings.values()) if ((p.round ?? 0) > round) round = p.round ?? 0;
  for (const r of state.byes.keys()) if (r > round) round = r;
  return round;
}

/** When the last round's last game was scored (the start, before any round); null while one is played. */
export function lastRoundOverAt(state: TournamentState): Date | null {
  if (state.playing.size > 0 || state.startedAt === null) return null;
  let last = Date.parse(state.startedAt);
  const round = currentSwissRound(state);
  for (const p of state.pairings.values())
    if (p.round === round && p.result !== undefined) last = Math.max(last, Date.parse(p.result.at));
  return new Date(last);
}

/**
 * When the next round may be paired: at the start for the first, then `roundInterval` after the
 * last round's last result; null when no round is due on the schedule (one is being played,
 * they are all paired, or the organiser starts each one).
 */
export function nextSwissRoundAt(state: TournamentState): Date | null {
  const swiss = state.terms?.swiss;
  if (state.status !== 'started' || swiss === undefined) return null;
  const round = currentSwissRound(state);
  if (round >= swiss.nbRounds) return null;
  const over = lastRoundOverAt(state);
  if (over === null) return null;
  // the first round here: at the start (after an imported TRF's rounds too)
  if (round === (state.swissImport?.rounds ?? 0)) return over;
  if (swiss.roundIntervalSeconds === null) return null;
  return new Date(over.getTime() + swiss.roundIntervalSeconds * 1000);
}

/** A bye the imported TRF requested for `round` (1-based) for this player: not paired in it. */
export function byeRequested(state: TournamentState, playerId: string, round: number): boolean {
  const cell = state.swissImport?.cells.get(playerId)?.[round - 1];
  return cell !== undefined && !cell.participated && round > state.swissImport!.rounds;
}
