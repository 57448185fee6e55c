/**
 * The tournament director: on each tick, for every tournament not finished, starts it at its
 * time, scores its ended games, creates any paired game a crash left uncreated, ends it at its
 * time, and pairs the next wave (or round). Every step is a command to the aggregate, appended
 * at an expected version, and every step is read back from the log on the next tick: a
 * director that dies between appending a wave and creating its games leaves the games to be
 * created by the next director (under the ids the wave recorded), never a second wave.
 */

import { randomUUID } from 'node:crypto';
import { metrics } from '@shogi/metrics';
import {
  currentSwissRound,
  finishesAt,
  isArranged,
  nextSwissRoundAt,
  PAIRERS,
  type TournamentCommandHandler,
  type TournamentCommandRequest,
  type TournamentState,
} from '@shogi/tournament';
import type { FastifyBaseLogger } from 'fastify';

/** What the director needs of the games. */
export interface DirectorGames {
  /** The endings of those of `gameIds` that ended. */
  ended(gameIds: readonly string[]): Promise<
    readonly {
      readonly id: string;
      readonly winner: 'sente' | 'gote' | null;
      readonly ply: number;
      readonly end_reason: string | null;
      readonly side_to_move: 'sente' | 'gote';
      readonly berserk_sente: boolean;
      readonly berserk_gote: boolean;
    }[]
  >;
  /** Which of `gameIds` exist. */
  existing(gameIds: readonly string[]): Promise<Set<string>>;
  /** Creates a paired game under its recorded id (and tells both players: their `gameStart`). */
  create(state: TournamentState, pairing: { gameId: string; sente: string; gote: string }): Promise<void>;
}

export interface DirectorDeps {
  readonly handler: TournamentCommandHandler;
  readonly games: DirectorGames;
  readonly activeIds: () => Promise<readonly string[]>;
  readonly now: () => Date;
  readonly log: FastifyBaseLogger;
  /** Called with each tournament whose standings or pairings changed (to tell its watchers). */
  readonly changed?: (tournamentId: string) => void;
}

async function command(deps: DirectorDeps, id: string, request: TournamentCommandRequest) {
  const handled = await deps.handler.handle(id, request);
  if (handled.kind === 'appended') deps.changed?.(id);
  else if (handled.kind === 'rejected' && request.type !== 'PairPlayers')
    deps.log.debug({ tournamentId: id, command: request.type, rejection: handled.rejection }, 'tournament: refused');
  return handled;
}

/** A Swiss whose next round is due (or whose rounds are all played): if none was paired, it is over. */
function swissRoundDue(state: TournamentState, now: Date): boolean {
  if (state.playing.size > 0 || state.terms?.swiss === undefined) return false;
  if (currentSwissRound(state) >= state.terms.swiss.nbRounds) return true;
  const due = nextSwissRoundAt(state);
  return due !== null && now.getTime() >= due.getTime();
}

/** One tournament's tick. */
export async function directTournament(deps: DirectorDeps, id: string): Promise<void> {
  let state = await deps.handler.current(id);
  const now = deps.now();
  if (state.status === 'created' && state.terms !== null && now.getTime() >= Date.parse(state.terms.startsAt)) {
    if (state.terms.format === 'robin' && state.players.size < 2) {
      await command(deps, id, { type: 'TerminateTournament', by: state.createdBy?.id ?? '' });
      return;
    }
    state = (await command(deps, id, { type: 'StartTournament' })).state;
  }
  const terms = state.terms;
  if (state.status !== 'started' || terms === null) return;
  // the results of the games that ended
  const playing = [...new Set(state.playing.values())];
  for (const g of await deps.games.ended(playing)) {
    // a game lost on time before both moved: the side to move never made its first move
    const noStart = g.end_reason === 'timeout' && g.ply < 2 ? { noStartBy: g.side_to_move } : {};
    const berserk = { sente: g.berserk_sente, gote: g.berserk_gote };
    state = (
      await command(deps, id, { type: 'ScoreGame', gameId: g.id, winner: g.winner, plies: g.ply, berserk, ...noStart })
    ).state;
  }
  // games a director recorded but did not live to create
  const stillPlaying = [...new Set(state.playing.values())];
  const existing = await deps.games.existing(stillPlaying);
  for (const gameId of stillPlaying)
    if (!existing.has(gameId)) {
      const p = state.pairings.get(gameId);
      if (p !== undefined) await deps.games.create(state, p);
    }
  // a Swiss has rounds, not a window
  if (terms.format !== 'swiss' && now.getTime() >= finishesAt(terms).getTime()) {
    // an arranged robin's games never played are lost by whoever never showed
    if (isArranged(state)) await command(deps, id, { type: 'ForfeitArrangements' });
    await command(deps, id, { type: 'FinishTournament' });
    return;
  }
  const pairingStarted = performance.now();
  const proposed = PAIRERS[terms.format].pair({ state, now });
  // a tick with nobody to pair is not a pairing: only waves and rounds made count
  if (proposed.length > 0)
    metrics.pairingSeconds.observe({ system: terms.format }, (performance.now() - pairingStarted) / 1000);
  if (proposed.length === 0) {
    if (terms.format === 'robin' && state.playing.size === 0) await command(deps, id, { type: 'FinishTournament' });
    if (terms.format === 'swiss' && swissRoundDue(state, now)) await command(deps, id, { type: 'FinishTournament' });
    return;
  }
  const pairings = proposed.map((p) => ({ gameId: randomUUID(), ...p }));
  const handled = await command(deps, id, { type: 'PairPlayers', pairings });
  if (handled.kind !== 'appended') return;
  deps.log.info({ tournamentId: id, pairs: pairings.length }, 'tournament: paired a wave');
  // the wave is recorded: its games are created now, or by the next tick if this one fails
  for (const p of pairings)
    await deps.games
      .create(handled.state, p)
      .catch((err: unknown) => deps.log.warn({ err, gameId: p.gameId }, 'tournament: game not created yet'));
}

export interface Director {
  stop(): Promise<void>;
  /** One tick now (tests, and a route that wants a tournament's pairing at once). */
  tick(): Promise<void>;
}

/** Runs a tick every `tickMs`, one at a time, while `holdLease` says this gateway directs. */
export function startDirector(
  deps: DirectorDeps & { tickMs: number; holdLease: () => Promise<boolean>; releaseLease: () => Promise<void> },
): Director {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async () => {
    if (stopped || !(await deps.holdLease())) return;
    for (const id of await deps.activeIds()) {
      if (stopped) return;
      await directTournament(deps, id).catch((err: unknown) =>
        deps.log.warn({ err, tournamentId: id }, 'tournament: tick failed; the next one tries again'),
      );
    }
  };
  // ticks never overlap: each runs after the one before it, timed or asked for
  let running: Promise<void> = Promise.resolve();
  const serial = (): Promise<void> => {
    running = running.then(tick).catch((err: unknown) => deps.log.warn({ err }, 'tournament director: tick failed'));
    return running;
  };
  const loop = () => {
    if (stopped) return;
    void serial().finally(() => {
      if (!stopped) timer = setTimeout(loop, deps.tickMs);
    });
  };
  timer = setTimeout(loop, 0);
  return {
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await running;
      await deps.releaseLease().catch(() => undefined);
    },
    tick: serial,
  };
}
