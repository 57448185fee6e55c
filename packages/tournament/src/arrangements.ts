/**
 * An arranged robin (lishogi's Robin, `arranged` terms): every game of the Berger table is open
 * from the start, and each is played at a time its two players agree within the event's window.
 * After lishogi's `Arrangement.setScheduledAt`: each player proposes a time (or takes it back);
 * a proposal within an hour of the opponent's agrees to the opponent's time. The director pairs
 * an agreed game once its time has come and both players are free; at the window's end every
 * game never played is forfeited by whoever never proposed a time (both, when neither or both
 * did: they never agreed). Pure.
 */
import type { ColorName } from '@shogi/rules';
import type { ProposedPairing } from './pairer.js';
import { bergerTable } from './robin-pairer.js';
import type { ArrangementTimes, PairingEntry, TournamentState } from './state.js';

/** lishogi `Arrangement.isWithinTolerance(_, _, 60)`: two proposals this close agree. */
export const ARRANGEMENT_TOLERANCE_MS = 60 * 60_000;

const NO_TIMES: ArrangementTimes = { sente: null, gote: null, scheduledAt: null };

export interface Arrangement {
  /** `<round>-<board>`, both 1-based, of the Berger table fixed at the start. */
  readonly id: string;
  readonly round: number;
  readonly sente: string;
  readonly gote: string;
  readonly times: ArrangementTimes;
  /** Its game once paired (played, being played, or forfeited); null before. */
  readonly pairing: PairingEntry | null;
}

export const isArranged = (state: TournamentState): boolean =>
  state.terms?.format === 'robin' && state.terms.arranged === true;

const pairingKey = (round: number | undefined, sente: string, gote: string) => `${round ?? 0}:${sente}:${gote}`;

/** Every arrangement of a started arranged robin, in table order (none before the start). */
export function arrangementsOf(state: TournamentState): Arrangement[] {
  if (state.seeds === null || !isArranged(state)) return [];
  const paired = new Map<string, PairingEntry>();
  for (const p of state.pairings.values()) paired.set(pairingKey(p.round, p.sente, p.gote), p);
  const out: Arrangement[] = [];
  for (const [r, round] of bergerTable(state.seeds, state.terms?.robinCycles ?? 1).entries())
    for (const [b, p] of round.entries()) {
      const id = `${r + 1}-${b + 1}`;
      out.push({
        id,
        round: r + 1,
        sente: p.sente,
        gote: p.gote,
        times: state.arrangementTimes.get(id) ?? NO_TIMES,
        pairing: paired.get(pairingKey(r + 1, p.sente, p.gote)) ?? null,
      });
    }
  return out;
}

export const arrangementOf = (state: TournamentState, id: string): Arrangement | undefined =>
  arrangementsOf(state).find((a) => a.id === id);

/** lishogi `setScheduledAt`: the times after `by` proposed `time` (null: took it back). */
export function proposeTime(times: ArrangementTimes, by: ColorName, time: string | null): ArrangementTimes {
  const next = { ...times, [by]: time };
  const theirs = next[by === 'sente' ? 'gote' : 'sente'];
  const agreed =
    time !== null && theirs !== null && Math.abs(Date.parse(theirs) - Date.parse(time)) <= ARRANGEMENT_TOLERANCE_MS;
  return { ...next, scheduledAt: agreed ? theirs : null };
}

/**
 * The games due now: agreed, their time come, not paired yet, both players free (in table
 * order, one game a player).
 */
export function dueArrangements(state: TournamentState, now: Date): ProposedPairing[] {
  if (state.status !== 'started') return [];
  const busy = new Set(state.playing.keys());
  const out: ProposedPairing[] = [];
  for (const a of arrangementsOf(state)) {
    const at = a.times.scheduledAt;
    if (a.pairing !== null || at === null || Date.parse(at) > now.getTime()) continue;
    if (busy.has(a.sente) || busy.has(a.gote)) continue;
    busy.add(a.sente).add(a.gote);
    out.push({ sente: a.sente, gote: a.gote, round: a.round });
  }
  return out;
}

/** Who never showed for a game never played: the one who never proposed a time, or both. */
export function absentOf(a: Arrangement): ColorName | 'both' {
  const sente = a.times.sente !== null;
  const gote = a.times.gote !== null;
  return sente === gote ? 'both' : sente ? 'gote' : 'sente';
}

export const arrangedPairer = {
  pair({ state, now }: { state: TournamentState; now: Date }): ProposedPairing[] {
    return dueArrangements(state, now);
  },
};
