/**
 * The one command handler: fold the game, decide the command, append what it decided at the
 * version it was decided on, and on a version conflict (someone appended first) read again
 * and decide again. Every way in calls it: the HTTP routes and the player socket, the
 * worker's validation and flag jobs, and whatever protocol comes next. Its I/O is the event
 * store port's; the decision is `decide`'s alone.
 */
import type { GameCommand } from './commands.js';
import { decide } from './decide.js';
import type { EventStore } from './event-store.js';
import { isVersionConflict } from './event-store.js';
import type { RecordedEvent } from './events.js';
import { fold } from './evolve.js';
import type { CaughtUp, GameStates } from './game-states.js';
import type { Rejection } from './rejections.js';
import type { GameState } from './state.js';

type Untimed<C> = C extends unknown ? Omit<C, 'now'> : never;
/** A command as a front end sends it: the handler gives it the time of each decision. */
export type CommandRequest = Untimed<GameCommand>;

/**
 * The state the first decision is made on.
 * - `log`: the kept state caught up with the log.
 * - `kept`: the kept state as it is (a gateway keeps it current from what is published), or
 *   the log's when none is kept.
 * - `{ state }`: one the caller made (a new game's empty state, a worker's kept state with
 *   the job's copy of the submission folded on).
 * A state not read from the log for the decision is trusted when the command is accepted
 * (if it is behind, the append conflicts); a rejection is confirmed on the log's state,
 * unless the game had ended: what the log may hold past the end changes no command's answer.
 */
export type Start = 'log' | 'kept' | { readonly state: GameState };

interface Decided {
  /** The state the decision was made on. */
  readonly state: GameState;
  /** The time given to the command. */
  readonly at: Date;
}

interface Accepted extends Decided {
  /** Events read from the log for the state decided on; none when it came from elsewhere. */
  readonly read: readonly RecordedEvent[];
  /** Version conflicts met before it. */
  readonly conflicts: number;
}

export type Handled =
  | (Decided & { readonly kind: 'rejected'; readonly rejection: Rejection })
  /** Accepted with nothing to record; `duplicateOf`: the seq of the request it replays. */
  | (Accepted & { readonly kind: 'unchanged'; readonly duplicateOf: number | null })
  | (Accepted & {
      readonly kind: 'appended';
      /** At least one event, as stored. */
      readonly appended: readonly RecordedEvent[];
      readonly after: GameState;
    });

/** The command met version conflicts every time it was decided again: the caller may retry it later. */
export class TooManyConflictsError extends Error {
  readonly gameId: string;
  readonly attempts: number;
  constructor(gameId: string, attempts: number) {
    super(`game ${gameId}: gave up after ${attempts} attempts, each appended to first by another`);
    this.name = 'TooManyConflictsError';
    this.gameId = gameId;
    this.attempts = attempts;
  }
}

export interface CommandHandlerOptions {
  readonly events: Pick<EventStore, 'append'>;
  /** The process's states, read through the same store. */
  readonly states: GameStates;
  /** Decisions after the first one, each after a version conflict, before giving up. */
  readonly maxConflicts: number;
  readonly now?: () => Date;
}

export class CommandHandler {
  private readonly events: Pick<EventStore, 'append'>;
  private readonly states: GameStates;
  private readonly maxConflicts: number;
  private readonly now: () => Date;

  constructor(options: CommandHandlerOptions) {
    this.events = options.events;
    this.states = options.states;
    this.maxConflicts = options.maxConflicts;
    this.now = options.now ?? (() => new Date());
  }

  async handle(gameId: string, command: CommandRequest, start: Start = 'log'): Promise<Handled> {
    const given = start === 'log' ? undefined : start === 'kept' ? this.states.peek(gameId) : start.state;
    let { state, read }: CaughtUp =
      given === undefined ? await this.states.current(gameId) : { state: given, read: [] };
    let trusted = given !== undefined;
    for (let conflicts = 0; ; conflicts++) {
      let at = this.now();
      let decision = decide({ ...command, now: at }, state);
      if (!decision.ok && trusted && state.status !== 'ended') {
        ({ state, read } = await this.states.current(gameId));
        at = this.now();
        decision = decide({ ...command, now: at }, state);
      }
      trusted = false;
      if (!decision.ok) return { kind: 'rejected', rejection: decision.rejection, state, at };
      if (decision.events.length === 0)
        return { kind: 'unchanged', duplicateOf: decision.duplicateOf ?? null, state, at, read, conflicts };
      try {
        const { events: appended } = await this.events.append(gameId, state.seq, decision.events);
        const after = fold(decision.events, state);
        this.states.keep(gameId, after);
        return { kind: 'appended', appended, after, state, at, read, conflicts };
      } catch (err) {
        if (!isVersionConflict(err)) throw err;
        this.states.forget(gameId);
        if (conflicts >= this.maxConflicts) throw new TooManyConflictsError(gameId, conflicts + 1);
        ({ state, read } = await this.states.current(gameId));
      }
    }
  }
}
