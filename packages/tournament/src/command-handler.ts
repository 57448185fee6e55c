/**
 * The one tournament command handler: catch the kept state up with the stream, decide, append
 * at the version decided on, and on a version conflict (another gateway appended first) read
 * again and decide again. A pairing is a PlayersPaired appended at an expected version, so two
 * pairers racing on one tournament make one wave: the loser decides again on the state that
 * holds the winner's pairings, and finds its players busy.
 *
 * Within one process the commands on a tournament queue up and are decided together: while one
 * append is in flight the next arrive, and the next append holds all they decided (a group
 * commit). A crowd joining one tournament at once then makes few appends, none racing the others
 * of the same process.
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

interface Pending {
  readonly request: TournamentCommandRequest;
  readonly resolve: (handled: TournamentHandled) => void;
  readonly reject: (error: unknown) => void;
}

/** A command's outcome within a batch: its events are `from`..`to` of the batch's append. */
type Outcome =
  | Exclude<TournamentHandled, { kind: 'appended' }>
  | { readonly kind: 'appended'; readonly from: number; readonly to: number; readonly state: TournamentState };

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
  /** Each tournament's commands waiting for the append in flight; present while one is. */
  private readonly queued = new Map<string, Pending[]>();

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

  /**
   * The tournament's terms, null when there is no such tournament. Terms never change once
   * created, so a tournament known here is not read again (a join needs them for its checks).
   */
  async terms(tournamentId: string): Promise<TournamentState['terms']> {
    return this.kept.get(tournamentId)?.terms ?? (await this.current(tournamentId)).terms;
  }

  handle(tournamentId: string, request: TournamentCommandRequest): Promise<TournamentHandled> {
    return new Promise((resolve, reject) => {
      const pending = { request, resolve, reject };
      const queued = this.queued.get(tournamentId);
      if (queued !== undefined) queued.push(pending);
      else {
        this.queued.set(tournamentId, [pending]);
        void this.drain(tournamentId);
      }
    });
  }

  /** Decides and appends the queued commands, a batch at a time, until none is left. */
  private async drain(tournamentId: string): Promise<void> {
    for (;;) {
      const batch = this.queued.get(tournamentId) ?? [];
      if (batch.length === 0) {
        this.queued.delete(tournamentId);
        return;
      }
      this.queued.set(tournamentId, []);
      try {
        const handled = await this.handleBatch(tournamentId, batch);
        for (const [i, p] of batch.entries()) p.resolve(handled[i] as TournamentHandled);
      } catch (e) {
        for (const p of batch) p.reject(e);
      }
    }
  }

  private async handleBatch(tournamentId: string, batch: readonly Pending[]): Promise<TournamentHandled[]> {
    for (let conflicts = 0; ; conflicts++) {
      const before = await this.current(tournamentId);
      let state = before;
      const events: TournamentEvent[] = [];
      const outcomes: Outcome[] = [];
      for (const { request } of batch) {
        const decision = decideTournament({ ...request, now: this.now() } as TournamentCommand, state);
        if (!decision.ok) outcomes.push({ kind: 'rejected', rejection: decision.rejection, state });
        else if (decision.events.length === 0) outcomes.push({ kind: 'unchanged', state });
        else {
          const from = events.length;
          events.push(...decision.events);
          state = foldTournament(decision.events, state);
          outcomes.push({ kind: 'appended', from, to: events.length, state });
        }
      }
      if (events.length === 0) return outcomes as TournamentHandled[];
      try {
        const appended = await this.store.append(tournamentId, before, events);
        this.kept.set(tournamentId, state);
        return outcomes.map((o) =>
          o.kind === 'appended' ? { kind: 'appended', appended: appended.slice(o.from, o.to), state: o.state } : o,
        );
      } catch (e) {
        if (!isTournamentVersionConflict(e)) throw e;
        if (conflicts >= this.maxConflicts) throw new TournamentConflictsError(tournamentId, conflicts + 1);
      }
    }
  }
}
