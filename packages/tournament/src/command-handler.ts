/**
 * The one tournament command handler: catch the kept state up with the stream, decide, append
 * at the version decided on, and on a version conflict (another gateway appended first) read
 * again and decide again. A pairing is a PlayersPaired appended at an expected version, so two
 * pairers racing on one tournament make one wave: the loser decides again on the state that
 * holds the winner's pairings, and finds its players busy.
 */
import type { TournamentCommand } from './commands.js';
import { decideTournament } from './decide.js';
import { isTournamentVersionConflict, type RecordedTournamentEvent, type TournamentEventStore } from './event-store.js';
import type { TournamentEvent } from './events.js';
import { foldTournament } from './evolve.js';
import type { TournamentRejection } from './rejections.js';
import { initialTournamentState, type TournamentState } from './state.js';

type Untimed<C> = C extends unknown ? Omit<C, 'now'> : never;
export type TournamentCommandRequest = Untimed<TournamentCommand>;

export type TournamentHandled =
  | { readonly kind: 'rejected'; readonly rejection: TournamentRejection; readonly state: TournamentState }
  | { readonly kind: 'unchanged'; readonly state: TournamentState }
  | {
      readonly kind: 'appended';
      readonly appended: readonly RecordedTournamentEvent[];
      readonly state: TournamentState;
    };

export class TournamentConflictsError extends Error {
  constructor(tournamentId: string, attempts: number) {
    super(`tournament ${tournamentId}: gave up after ${attempts} attempts, each appended to first by another`);
    this.name = 'TournamentConflictsError';
  }
}

export interface TournamentCommandHandlerOptions {
  readonly store: TournamentEventStore;
  readonly maxConflicts?: number;
  readonly now?: () => Date;
}

export class TournamentCommandHandler {
  private readonly store: TournamentEventStore;
  private readonly maxConflicts: number;
  private readonly now: () => Date;
  /** Each tournament's state as last read or written here; caught up before every decision. */
  private readonly kept = new Map<string, TournamentState>();

  constructor(options: TournamentCommandHandlerOptions) {
    this.store = options.store;
    this.maxConflicts = options.maxConflicts ?? 8;
    this.now = options.now ?? (() => new Date());
  }

  /** The tournament's state, caught up with its stream. */
  async current(tournamentId: string): Promise<TournamentState> {
    const kept = this.kept.get(tournamentId) ?? initialTournamentState();
    const tail = await this.store.readStream(tournamentId, kept.version);
    const state = tail.length === 0 ? kept : foldTournament(tail as readonly TournamentEvent[], kept);
    if (state.status !== 'none') this.kept.set(tournamentId, state);
    return state;
  }

  async handle(tournamentId: string, request: TournamentCommandRequest): Promise<TournamentHandled> {
    for (let conflicts = 0; ; conflicts++) {
      const state = await this.current(tournamentId);
      const decision = decideTournament({ ...request, now: this.now() } as TournamentCommand, state);
      if (!decision.ok) return { kind: 'rejected', rejection: decision.rejection, state };
      if (decision.events.length === 0) return { kind: 'unchanged', state };
      try {
        const appended = await this.store.append(tournamentId, state, decision.events);
        const after = foldTournament(decision.events, state);
        this.kept.set(tournamentId, after);
        return { kind: 'appended', appended, state: after };
      } catch (e) {
        if (!isTournamentVersionConflict(e)) throw e;
        if (conflicts >= this.maxConflicts) throw new TournamentConflictsError(tournamentId, conflicts + 1);
      }
    }
  }
}
