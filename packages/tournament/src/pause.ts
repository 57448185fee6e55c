/**
 * lishogi's Pause (`modules/tournament/src/main/Pause.scala`): the delay before a player who
 * paused a started arena may rejoin. The first delayed pause waits 10 s; each next one
 * `pauses × clock / 15` (the clock's estimated seconds), at most 120 s; twenty minutes without a
 * pause start the count again. lishogi delays the pauses of the top seven players only
 * (`TournamentApi.withdraw`: `ranking get userId exists (7 >)`), and a stalling player's always.
 */
import { estimatedSeconds } from '@shogi/ratings';
import type { PlayerEntry } from './state.js';
import type { TournamentClock } from './terms.js';

export const PAUSE_RULES = {
  minSeconds: 10,
  maxSeconds: 120,
  /** lishogi's cache of pause records expires this long after the last write. */
  resetAfterMs: 20 * 60_000,
  /** Ranks 1 to 7 are delayed. */
  delayedRanks: 7,
  clockDivisor: 15,
} as const;

/** The pause count after one more delayed pause at `at`. */
export function nextPauseCount(player: Pick<PlayerEntry, 'pauses' | 'pausedAt'>, at: string): number {
  if (player.pausedAt === null) return 1;
  return Date.parse(at) - Date.parse(player.pausedAt) < PAUSE_RULES.resetAfterMs ? player.pauses + 1 : 1;
}

export function pauseDelaySeconds(pauses: number, clock: TournamentClock): number {
  const base = Math.floor((estimatedSeconds(clock) ?? 0) / PAUSE_RULES.clockDivisor);
  return Math.min(PAUSE_RULES.maxSeconds, Math.max(PAUSE_RULES.minSeconds, base * (pauses - 1)));
}

/** Seconds before the player may rejoin; 0 when they may now (lishogi: a second or less is none). */
export function remainingPauseSeconds(
  player: Pick<PlayerEntry, 'pauses' | 'pausedAt'>,
  clock: TournamentClock,
  now: Date,
): number {
  if (player.pausedAt === null || player.pauses === 0) return 0;
  const since = now.getTime() - Date.parse(player.pausedAt);
  if (since >= PAUSE_RULES.resetAfterMs) return 0;
  const left = Math.ceil(pauseDelaySeconds(player.pauses, clock) - since / 1000);
  return left > 1 ? left : 0;
}
