/**
 * The game service over the event store: commands are decided on the folded state and
 * appended at the next seq; a version conflict (someone appended first) re-reads the
 * tail and decides again, a bounded number of times. States are cached per game and
 * caught up from their last seq, so a command costs one tail read and one append.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  clockView,
  type Decision,
  decide,
  type EventStore,
  evolve,
  type GameEvent,
  type GameState,
  initialState,
  isGameEventType,
  isVersionConflict,
  type MoveSubmitted,
  movesOf,
  RecentStates,
  type RecordedEvent,
  type RejectionCode,
} from '@shogi/game';
import { submitterOf, toWire, verdictOf, wireOf } from '@shogi/pipeline';
import { type ClockView, type CreateGameBody, type ErrorCode, type GameView, REJECTION_ERRORS } from '@shogi/protocol';
import { ApiError } from './api-error.js';
import type { GameService, Player, Submission } from './service.js';

// every rejection code of the game has a wire code (compile-time check)
const rejectionErrors: Readonly<Record<RejectionCode, ErrorCode>> = REJECTION_ERRORS;

export interface PlayerStore {
  insert(player: { id: string; name: string; tokenHash: string }): Promise<void>;
  byTokenHash(tokenHash: string): Promise<Player | null>;
  byId(id: string): Promise<Player | null>;
}

export interface GameServiceDeps {
  readonly events: EventStore;
  readonly players: PlayerStore;
  /**
   * Enqueues the validation job of the submission at `seq` (job id `${gameId}-${seq}`),
   * with the recorded submission when the caller has it.
   */
  readonly enqueue: (gameId: string, seq: number, submitted?: RecordedEvent<MoveSubmitted>) => Promise<void>;
  /**
   * Publishes events this gateway appended on the game's channel, so every gateway's
   * sockets see resignations, aborts and impasse declarations at once. A MoveSubmitted is
   * not published: the worker publishes it together with its verdict, one message and one
   * frame per socket instead of two a few milliseconds apart.
   * Best effort: a lost message is repaired by the subscriber's catch-up read.
   */
  readonly publish: (gameId: string, events: readonly RecordedEvent[]) => Promise<void>;
  /**
   * Hands appended events to this process' own subscribers, called just before a command
   * returns: the player's ack and the event (a resignation, say) then leave in one write.
   */
  readonly deliverLocal?: (gameId: string, events: readonly RecordedEvent[]) => void;
  /** Schedules the flag job of a new timed game's first turn (the worker schedules every later one). */
  readonly scheduleFlag?: (gameId: string, state: GameState) => Promise<void>;
  /** Where a job that could not be queued for a recorded command is reported. */
  readonly logger?: { warn(obj: object, msg: string): void };
  readonly now?: () => Date;
  readonly maxRetries: number;
  /** games whose folded state is kept in memory */
  readonly cacheSize?: number;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function createGameService(deps: GameServiceDeps): GameService & { states: StateCache } {
  const now = deps.now ?? (() => new Date());
  const states = new StateCache(deps.events, deps.cacheSize ?? 10_000);

  /** decide + append with retries; returns the appended events (empty for a duplicate). */
  async function execute(
    gameId: string,
    command: (state: GameState) => Decision,
    options: {
      /** the submitted ply, to tell a future ply (FUTURE_PLY) from a stale one */
      readonly ply?: number;
      /** the game id was just drawn at random: its stream is empty, no need to read it */
      readonly fresh?: boolean;
    } = {},
  ): Promise<{ state: GameState; decision: Extract<Decision, { ok: true }>; appended: RecordedEvent[] }> {
    for (let attempt = 0; ; attempt++) {
      // Fast path: a state kept current by the hub may decide without a read. An acceptance
      // is trusted (a stale state makes its append conflict); a rejection is confirmed on
      // the state read from the log, unless the cached game has ended: what the log may hold
      // beyond an ended state (verdicts of late submissions) changes no command's answer,
      // so a refused or replayed command on a finished game costs no read.
      const cached = attempt === 0 ? (options.fresh ? initialState() : states.peek(gameId)) : undefined;
      let state = cached ?? (await states.current(gameId));
      let decision = command(state);
      if (!decision.ok && cached !== undefined && cached.status !== 'ended') {
        state = await states.current(gameId);
        decision = command(state);
      }
      if (!decision.ok) throw rejectionError(decision.rejection.code, decision.rejection.message, state, options.ply);
      if (decision.events.length === 0) return { state, decision, appended: [] };
      try {
        const result = await deps.events.append(gameId, state.seq, decision.events);
        states.applied(gameId, state, result.events);
        return { state, decision, appended: result.events };
      } catch (err) {
        if (!isVersionConflict(err)) throw err;
        states.forget(gameId);
        if (attempt >= deps.maxRetries) throw new ApiError('CONFLICT', `gave up after ${attempt + 1} attempts`);
      }
    }
  }

  const publishQuietly = (gameId: string, events: readonly RecordedEvent[]) =>
    deps.publish(gameId, events).catch(() => {
      // the log has the events; subscribers catch up by seq
    });

  /**
   * After the append a command is recorded: a job that cannot be queued (Redis down) must not
   * turn its answer into a 5xx, which says "not recorded, retry". The sweeper queues what waits
   * without a job, and finds timed games past their deadline.
   */
  const afterRecorded = async (gameId: string, job: 'validate' | 'flag', queue: () => Promise<void>): Promise<void> => {
    try {
      await queue();
    } catch (err) {
      deps.logger?.warn({ err, gameId, job }, 'job not queued after the append: the sweeper will queue it');
    }
  };

  /** Resignation, abort and impasse: decide, append, publish; a player's replay of the request answers its seq. */
  const endingCommand = async (
    gameId: string,
    player: Player,
    idempotencyKey: string | undefined,
    type: 'Resign' | 'Abort' | 'DeclareImpasse',
  ): Promise<{ seq: number }> => {
    const key = idempotencyKey === undefined ? {} : { idempotencyKey };
    const { decision, appended } = await execute(gameId, (s) =>
      decide({ type, playerId: player.id, now: now(), ...key }, s),
    );
    if (decision.duplicateOf !== undefined) return { seq: decision.duplicateOf };
    const first = appended[0];
    if (first === undefined) throw new ApiError('INTERNAL');
    await publishQuietly(gameId, appended);
    deps.deliverLocal?.(gameId, appended);
    return { seq: first.seq };
  };

  const known = async (gameId: string): Promise<GameState> => {
    const state = await states.current(gameId);
    if (state.status === 'none') throw new ApiError('GAME_NOT_FOUND');
    return state;
  };

  return {
    states,

    async createPlayer(name) {
      const token = randomBytes(24).toString('base64url');
      const player = { id: randomUUID(), name };
      await deps.players.insert({ ...player, tokenHash: hashToken(token) });
      return { ...player, token };
    },

    async createGame(body: CreateGameBody) {
      if (body.handicap !== undefined && body.sfen !== undefined) throw new ApiError('INVALID_SETUP');
      if (body.sente === body.gote) throw new ApiError('SAME_PLAYER');
      const [sente, gote] = await Promise.all([deps.players.byId(body.sente), deps.players.byId(body.gote)]);
      if (!sente || !gote) throw new ApiError('UNKNOWN_PLAYER', !sente ? `sente ${body.sente}` : `gote ${body.gote}`);
      const gameId = randomUUID();
      const { appended } = await execute(
        gameId,
        (state) =>
          decide(
            {
              type: 'CreateGame',
              gameId,
              sente: { id: sente.id, name: sente.name },
              gote: { id: gote.id, name: gote.name },
              ruleset: body.ruleset ?? 'default',
              handicap: body.handicap ?? null,
              initialSfen: body.sfen ?? null,
              ...(body.timeControl === undefined ? {} : { timeControl: body.timeControl }),
              ...(body.rated === undefined ? {} : { rated: body.rated }),
              now: now(),
            },
            state,
          ),
        { fresh: true },
      );
      if (appended.length === 0) throw new ApiError('INTERNAL');
      // the append at seq 0 succeeded: the new game's state is the empty one plus what it wrote
      const created = foldOnto(initialState(), appended);
      const scheduleFlag = deps.scheduleFlag;
      if (scheduleFlag !== undefined) await afterRecorded(gameId, 'flag', () => scheduleFlag(gameId, created));
      return viewOf(created, now());
    },

    async view(gameId) {
      return viewOf(await known(gameId), now());
    },

    async eventsAfter(gameId, afterSeq, limit = 1000) {
      const events = await deps.events.readStream(gameId, afterSeq);
      if (events.length === 0 && afterSeq === 0) throw new ApiError('GAME_NOT_FOUND');
      if (events.length === 0) await known(gameId);
      return events.slice(0, limit).map(wireOf);
    },

    async seatOf(gameId, playerId) {
      const state = await known(gameId);
      const info = state.info;
      if (info?.sente.id === playerId) return { side: 'sente', lastSeq: state.seq };
      if (info?.gote.id === playerId) return { side: 'gote', lastSeq: state.seq };
      throw new ApiError('NOT_A_PLAYER');
    },

    async submitMove(gameId, player, move: Submission) {
      const { decision, appended, state } = await execute(
        gameId,
        (s) =>
          decide(
            {
              type: 'SubmitMove',
              playerId: player.id,
              usi: move.usi,
              ply: move.ply,
              now: now(),
              ...(move.idempotencyKey === undefined ? {} : { idempotencyKey: move.idempotencyKey }),
            },
            s,
          ),
        { ply: move.ply },
      );
      if (decision.duplicateOf !== undefined) {
        const { sente, gote } = state.lastSubmissionBy;
        const original = sente?.seq === decision.duplicateOf ? sente : gote;
        if (original && (original.usi !== move.usi || original.ply !== move.ply)) {
          throw new ApiError('IDEMPOTENCY_KEY_REUSED', `the key was used for ${original.usi} at ply ${original.ply}`);
        }
        // the first answer may have been lost with its connection before the job was queued:
        // a replay still waiting for its verdict queues it again (same job id: a no-op if queued)
        const duplicateOf = decision.duplicateOf;
        if (state.pending.some((p) => p.seq === duplicateOf))
          await afterRecorded(gameId, 'validate', () => deps.enqueue(gameId, duplicateOf));
        return { seq: duplicateOf };
      }
      const submitted = appended[0] as RecordedEvent<MoveSubmitted>;
      await afterRecorded(gameId, 'validate', () => deps.enqueue(gameId, submitted.seq, submitted));
      return { seq: submitted.seq };
    },

    resign(gameId, player, idempotencyKey) {
      return endingCommand(gameId, player, idempotencyKey, 'Resign');
    },

    abort(gameId, player, idempotencyKey) {
      return endingCommand(gameId, player, idempotencyKey, 'Abort');
    },

    declareImpasse(gameId, player, idempotencyKey) {
      return endingCommand(gameId, player, idempotencyKey, 'DeclareImpasse');
    },

    observe(gameId, published) {
      states.observe(gameId, published as readonly RecordedEvent[]);
    },

    toWire,
    verdictOf,
    submitterOf,
  };
}

function rejectionError(code: RejectionCode, message: string, state: GameState, ply?: number): ApiError {
  if (code === 'stale_ply' && ply !== undefined && ply > state.ply) return new ApiError('FUTURE_PLY', message);
  return new ApiError(rejectionErrors[code], message);
}

/** The clocks at `now` (null for unlimited games), stopped at the end of an ended game. */
export function clockOf(state: GameState, now: Date): ClockView | null {
  if (state.clock === null) return null;
  return clockView(state.clock, state.ply, state.result, now.getTime());
}

export function viewOf(state: GameState, now: Date = new Date()): GameView {
  const info = state.info;
  if (info === null) throw new ApiError('GAME_NOT_FOUND');
  return {
    id: info.gameId,
    ruleset: info.ruleset,
    initialSfen: info.initialSfen,
    sfen: state.sfen,
    moves: movesOf(state),
    ply: state.ply,
    sideToMove: state.sideToMove,
    status: state.status === 'ended' ? 'ended' : 'ongoing',
    result: state.result === null ? null : { winner: state.result.winner, reason: state.result.reason },
    lastSeq: state.seq,
    players: { sente: info.sente, gote: info.gote },
    timeControl: info.timeControl,
    rated: info.rated,
    clock: clockOf(state, now),
  };
}

/** The shape of a game id, as `Id` in @shogi/protocol's schemas. */
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Folded states by game, caught up from their seq on each use. Ended games are kept like the
 * others (and leave by the same count and idle bounds): a command on one, such as a replayed
 * resignation, is then answered without a read.
 */
export class StateCache {
  private readonly map: RecentStates<GameState>;
  private readonly events: EventStore;

  /** `idleMs`: a game without a command or an observed event here for that long is read from the log again. */
  constructor(events: EventStore, limit: number, idleMs = 60_000) {
    this.events = events;
    this.map = new RecentStates({ limit, idleMs });
  }

  async current(gameId: string): Promise<GameState> {
    // an id no game can have (the route schemas' Id) names none; WebSocket routes look the
    // game up in preValidation, before their schema runs, and PostgreSQL refuses a NUL byte
    if (!GAME_ID.test(gameId)) return initialState();
    let state = this.map.get(gameId) ?? initialState();
    const tail = await this.events.readStream(gameId, state.seq);
    state = foldOnto(state, tail);
    if (state.status !== 'none') this.map.set(gameId, state);
    return state;
  }

  applied(gameId: string, before: GameState, events: readonly RecordedEvent[]): void {
    const cached = this.map.peek(gameId);
    // only move forward from the state the decision was made on
    if (cached !== undefined && cached.seq > before.seq) return;
    this.map.set(gameId, foldOnto(before, events));
  }

  /** The cached state without reading the log (possibly behind it). */
  peek(gameId: string): GameState | undefined {
    return this.map.peek(gameId);
  }

  /** Folds published events onto the cached state when they follow it exactly. */
  observe(gameId: string, events: readonly RecordedEvent[]): void {
    const cached = this.map.peek(gameId);
    if (cached === undefined) return;
    let s = cached;
    for (const e of events) {
      if (e.seq <= s.seq) continue;
      // anything but the next event of the game (a gap, or a type the game does not know)
      // leaves the cache as it is; the next command reads the log
      if (e.seq !== s.seq + 1 || typeof e.type !== 'string' || !isGameEventType(e.type)) return;
      s = evolve(s, e as GameEvent);
    }
    if (s === cached) return;
    this.map.set(gameId, s);
  }

  forget(gameId: string): void {
    this.map.delete(gameId);
  }
}

function foldOnto(state: GameState, events: readonly RecordedEvent[]): GameState {
  let s = state;
  for (const e of events) {
    if (e.seq !== s.seq + 1) throw new Error(`stream gap: expected seq ${s.seq + 1}, got ${e.seq}`);
    s = evolve(s, e as GameEvent);
  }
  return s;
}
