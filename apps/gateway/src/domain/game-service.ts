/**
 * The game service: what the routes and the player socket ask of games, as commands for the
 * command handler of @shogi/game and reads of the states it keeps. The hub keeps a watched
 * game's state current from what is published (`observe`), so a command usually decides
 * without a read. Once a command is recorded come its follow-ups: the validation job of a
 * submission, the flag job of a new timed game's first turn, the publication of an ending.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type ClockRules,
  CommandHandler,
  type CommandRequest,
  type EventStore,
  type GameState,
  GameStates,
  type Handled,
  initialState,
  type MoveSubmitted,
  preferenceAllows,
  type RecordedEvent,
  type RejectionCode,
  type Start,
  type TakebackPreference,
  TooManyConflictsError,
} from '@shogi/game';
import { metrics } from '@shogi/metrics';
import { toWire, wireOf } from '@shogi/pipeline';
import {
  type CreateGameBody,
  type ErrorCode,
  type GameView,
  REJECTION_ERRORS,
  type Side,
  type WireEvent,
} from '@shogi/protocol';
import { ApiError } from './api-error.js';
import { hashToken } from './auth.js';
import { type BotTitles, NO_BOT_TITLES, withPlayerTitles } from './bot-titles.js';
import { viewOf } from './game-view.js';
import type { Player } from './player.js';

/**
 * What a front end adds to the terms the HTTP body states: the rules of its protocol (the CSA
 * protocol's clock), and the id of a game announced before it starts (CSA's Game_ID).
 */
export interface GameOptions {
  /** an id drawn at random by the caller, used once */
  readonly gameId?: string;
  readonly clockRules?: ClockRules;
  readonly illegalMoveLoses?: boolean;
  readonly maxMoves?: number;
  /** the game refuses takebacks whatever the players' preferences (default: under CSA clock rules) */
  readonly noTakebacks?: boolean;
  /** a tournament's game: no abort, no rematch, no takebacks (packages/game CreateGame) */
  readonly tournamentId?: string;
}

/** A takeback request: propose one, or answer the pending one (`decline` by the proposer withdraws it). */
export type TakebackAction = 'propose' | 'accept' | 'decline';

export interface Submission {
  readonly usi: string;
  readonly ply: number;
  readonly idempotencyKey?: string | undefined;
  /** the player's words with the move (a CSA engine's score and line) */
  readonly comment?: string | undefined;
  /** the player's page lost focus since their previous move */
  readonly blur?: boolean | undefined;
}

/** A game's view with what the view leaves out. */
export interface GameDetails {
  readonly view: GameView;
  /** ISO 8601 */
  readonly createdAt: string;
}

/** A player's place in a game (GameService.seatOf). */
export interface Seat {
  readonly side: Side;
  readonly lastSeq: number;
  /** seqs of the player's submissions awaiting their verdict */
  readonly pending: readonly number[];
}

/** What the routes need from the game domain. */
export interface GameService {
  createPlayer(name: string): Promise<Player & { token: string }>;
  createGame(body: CreateGameBody, options?: GameOptions): Promise<GameView>;
  /** Throws ApiError GAME_NOT_FOUND. */
  view(gameId: string): Promise<GameView>;
  /** The view and the creation time, from one read; throws ApiError GAME_NOT_FOUND. */
  details(gameId: string): Promise<GameDetails>;
  /** Throws ApiError GAME_NOT_FOUND. */
  eventsAfter(gameId: string, afterSeq: number, limit?: number): Promise<WireEvent[]>;
  /**
   * The player's side in the game, the game's last seq and the seqs of the player's
   * submissions still awaiting their verdict, from one read of the log; throws
   * GAME_NOT_FOUND or NOT_A_PLAYER.
   */
  seatOf(gameId: string, playerId: string): Promise<Seat>;
  /**
   * Durable MoveSubmitted, its job enqueued (a job Redis cannot take is left to the sweeper:
   * a recorded submission is always answered); throws ApiError with a catalog code.
   */
  submitMove(gameId: string, player: Player, move: Submission): Promise<{ seq: number }>;
  /** Resigned + GameEnded; the same player's replay of the key answers the same seq. */
  resign(gameId: string, player: Player, idempotencyKey?: string): Promise<{ seq: number }>;
  /** GameEnded 'abort' before the player's first move; throws TOO_LATE_TO_ABORT, NOT_A_PLAYER, GAME_OVER... */
  abort(gameId: string, player: Player, idempotencyKey?: string): Promise<{ seq: number }>;
  /** ImpasseDeclared + GameEnded (the declarer wins if valid, else loses); throws NOT_YOUR_TURN, GAME_OVER... */
  declareImpasse(gameId: string, player: Player, idempotencyKey?: string): Promise<{ seq: number }>;
  /**
   * TakebackProposed, TakebackAccepted or TakebackDeclined; throws TAKEBACK_NOT_ALLOWED,
   * TAKEBACK_PENDING, NO_MOVE_TO_TAKE_BACK, NO_TAKEBACK_PROPOSAL, NOT_A_PLAYER, GAME_OVER...
   */
  takeback(gameId: string, player: Player, action: TakebackAction): Promise<{ seq: number }>;
  /**
   * Berserked: a tournament player's main time halved before their first move; `seq` its event,
   * or the game's last seq when they had berserked already. Throws NOT_BERSERKABLE, NOT_A_PLAYER,
   * GAME_OVER...
   */
  berserk(gameId: string, player: Player): Promise<{ seq: number }>;
  /** Events seen on the hub: keeps the state of a watched game current. */
  observe(gameId: string, published: readonly unknown[]): void;
  /** An element of a message published on a game's channel, in the wire shape (@shogi/pipeline). */
  toWire(published: unknown): WireEvent | null;
}

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
  /**
   * Tells both players a game of theirs started (on their `player:<id>` channels): every game
   * is created here, however it was agreed, so this is the one place that knows them all.
   * Best effort: a lost notice is found again in the player's ongoing games.
   */
  readonly announceStarted?: (view: GameView) => Promise<void>;
  /** Schedules the flag job of a new timed game's first turn (the worker schedules every later one). */
  readonly scheduleFlag?: (gameId: string, state: GameState) => Promise<void>;
  /** The players' takeback preferences (the default for a player without an account); all `always` when absent. */
  readonly takebackPreferences?: (playerIds: readonly string[]) => Promise<ReadonlyMap<string, TakebackPreference>>;
  /** Where a job that could not be queued for a recorded command is reported. */
  readonly logger?: { warn(obj: object, msg: string): void };
  readonly now?: () => Date;
  readonly maxRetries: number;
  /** the BOT titles of the players views show (none when absent) */
  readonly titles?: BotTitles;
  /** games whose folded state is kept in memory */
  readonly cacheSize?: number;
}

// every rejection code of the game has a wire code (compile-time check)
const rejectionErrors: Readonly<Record<RejectionCode, ErrorCode>> = REJECTION_ERRORS;

/**
 * The shape of a game id, as `Id` in @shogi/protocol's schemas: no other names a game, and
 * PostgreSQL refuses some (a NUL byte). WebSocket routes look the game up in preValidation,
 * before their schema runs.
 */
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;

type Done = Exclude<Handled, { kind: 'rejected' }>;

/** What the service's functions share: its dependencies, the states it keeps and the handler over them. */
interface Games {
  readonly deps: GameServiceDeps;
  readonly states: GameStates;
  readonly handler: CommandHandler;
  readonly now: () => Date;
  readonly titles: BotTitles;
}

export function createGameService(deps: GameServiceDeps): GameService & { states: GameStates } {
  const now = deps.now ?? (() => new Date());
  // ended games stay: a replayed or late command on one is answered without a read
  const states = new GameStates(deps.events, { limit: deps.cacheSize ?? 10_000, keepEnded: true });
  const games: Games = {
    deps,
    states,
    handler: new CommandHandler({ events: deps.events, states, maxConflicts: deps.maxRetries, now }),
    now,
    titles: deps.titles ?? NO_BOT_TITLES,
  };
  return {
    states,
    createPlayer: (name) => createPlayer(deps.players, name),
    createGame: (body, options) => createGame(games, body, options),
    view: async (gameId) => withPlayerTitles(games.titles, viewOf(await known(games, gameId), now())),
    details: async (gameId) => detailsOf(games, await known(games, gameId), now()),
    eventsAfter: (gameId, afterSeq, limit = 1000) => eventsAfter(games, gameId, afterSeq, limit),
    seatOf: async (gameId, playerId) => seatIn(await known(games, gameId), playerId),
    submitMove: (gameId, player, move) => submitMove(games, gameId, player, move),
    resign: (gameId, player, key) => endingCommand(games, gameId, player, key, 'Resign'),
    abort: (gameId, player, key) => endingCommand(games, gameId, player, key, 'Abort'),
    declareImpasse: (gameId, player, key) => endingCommand(games, gameId, player, key, 'DeclareImpasse'),
    takeback: (gameId, player, action) => takeback(games, gameId, player, action),
    berserk: async (gameId, player) => {
      const handled = await run(games, gameId, { type: 'Berserk', playerId: player.id }, 'kept');
      if (handled.kind !== 'appended') return { seq: handled.state.seq };
      await published(games, gameId, handled.appended);
      return { seq: handled.appended[0]?.seq ?? handled.state.seq };
    },
    observe: (gameId, published) => states.observe(gameId, published as readonly RecordedEvent[]),
    toWire,
  };
}

/** The command handled, or the ApiError of its refusal; `ply`: the submitted ply (FUTURE_PLY or STALE_PLY). */
async function run(games: Games, gameId: string, command: CommandRequest, start: Start, ply?: number): Promise<Done> {
  if (!GAME_ID.test(gameId)) throw new ApiError('GAME_NOT_FOUND');
  let handled: Handled;
  try {
    handled = await games.handler.handle(gameId, command, start);
  } catch (err) {
    if (err instanceof TooManyConflictsError) throw new ApiError('CONFLICT', `gave up after ${err.attempts} attempts`);
    throw err;
  }
  if (handled.kind !== 'rejected') return handled;
  const { code, message } = handled.rejection;
  if (code === 'stale_ply' && ply !== undefined && ply > handled.state.ply) throw new ApiError('FUTURE_PLY', message);
  throw new ApiError(rejectionErrors[code], message);
}

/**
 * After the append a command is recorded: a job that cannot be queued (Redis down) must not
 * turn its answer into a 5xx, which says "not recorded, retry". The sweeper queues what waits
 * without a job, and finds timed games past their deadline.
 */
async function afterRecorded(
  games: Games,
  gameId: string,
  job: 'validate' | 'flag',
  queue: () => Promise<void>,
): Promise<void> {
  try {
    await queue();
  } catch (err) {
    games.deps.logger?.warn({ err, gameId, job }, 'job not queued after the append: the sweeper will queue it');
  }
}

async function known(games: Games, gameId: string): Promise<GameState> {
  if (!GAME_ID.test(gameId)) throw new ApiError('GAME_NOT_FOUND');
  const { state } = await games.states.current(gameId);
  if (state.status === 'none') throw new ApiError('GAME_NOT_FOUND');
  return state;
}

async function detailsOf(games: Games, state: GameState, at: Date): Promise<GameDetails> {
  const view = await withPlayerTitles(games.titles, viewOf(state, at));
  // viewOf has checked that the game exists
  return { view, createdAt: state.info?.createdAt ?? '' };
}

function seatIn(state: GameState, playerId: string): Seat {
  const info = state.info;
  const side = info?.sente.id === playerId ? 'sente' : info?.gote.id === playerId ? 'gote' : null;
  if (side === null) throw new ApiError('NOT_A_PLAYER');
  const pending = state.pending.filter((p) => p.playerId === playerId).map((p) => p.seq);
  return { side, lastSeq: state.seq, pending };
}

async function createPlayer(players: PlayerStore, name: string): Promise<Player & { token: string }> {
  const token = randomBytes(24).toString('base64url');
  const player = { id: randomUUID(), name };
  await players.insert({ ...player, tokenHash: hashToken(token) });
  return { ...player, token };
}

async function createGame(games: Games, body: CreateGameBody, options: GameOptions = {}): Promise<GameView> {
  if (body.handicap !== undefined && body.sfen !== undefined) throw new ApiError('INVALID_SETUP');
  if (body.sente === body.gote) throw new ApiError('SAME_PLAYER');
  const { players, scheduleFlag } = games.deps;
  const [sente, gote] = await Promise.all([players.byId(body.sente), players.byId(body.gote)]);
  if (!sente || !gote) throw new ApiError('UNKNOWN_PLAYER', !sente ? `sente ${body.sente}` : `gote ${body.gote}`);
  const gameId = options.gameId ?? randomUUID();
  if (!GAME_ID.test(gameId)) throw new ApiError('INTERNAL', 'a game id of the wrong shape');
  const command: CommandRequest = {
    type: 'CreateGame',
    gameId,
    sente: { id: sente.id, name: sente.name },
    gote: { id: gote.id, name: gote.name },
    ruleset: body.ruleset ?? 'default',
    handicap: body.handicap ?? null,
    initialSfen: body.sfen ?? null,
    ...(body.timeControl === undefined ? {} : { timeControl: body.timeControl }),
    ...(body.rated === undefined ? {} : { rated: body.rated }),
    ...(options.clockRules === undefined ? {} : { clockRules: options.clockRules }),
    ...(options.illegalMoveLoses === undefined ? {} : { illegalMoveLoses: options.illegalMoveLoses }),
    ...(options.maxMoves === undefined ? {} : { maxMoves: options.maxMoves }),
    ...((options.noTakebacks ?? options.clockRules === 'csa') ? { noTakebacks: true } : {}),
    ...(options.tournamentId === undefined ? {} : { tournamentId: options.tournamentId }),
  };
  // the id was just drawn at random: its stream is empty, no need to read it (an id drawn
  // earlier and used twice conflicts on the append, and is refused as game_exists)
  const handled = await run(games, gameId, command, { state: initialState() });
  if (handled.kind !== 'appended') throw new ApiError('INTERNAL');
  const created = handled.after;
  if (scheduleFlag !== undefined) await afterRecorded(games, gameId, 'flag', () => scheduleFlag(gameId, created));
  const view = await withPlayerTitles(games.titles, viewOf(created, games.now()));
  await games.deps
    .announceStarted?.(view)
    .catch((err: unknown) => games.deps.logger?.warn({ err, gameId }, 'game start not announced to its players'));
  return view;
}

async function eventsAfter(games: Games, gameId: string, afterSeq: number, limit: number): Promise<WireEvent[]> {
  const events = await games.deps.events.readStream(gameId, afterSeq);
  if (events.length === 0 && afterSeq === 0) throw new ApiError('GAME_NOT_FOUND');
  if (events.length === 0) await known(games, gameId);
  return events.slice(0, limit).map(wireOf);
}

async function submitMove(games: Games, gameId: string, player: Player, move: Submission): Promise<{ seq: number }> {
  const key = move.idempotencyKey === undefined ? {} : { idempotencyKey: move.idempotencyKey };
  const comment = move.comment === undefined ? {} : { comment: move.comment };
  const command: CommandRequest = {
    type: 'SubmitMove',
    playerId: player.id,
    usi: move.usi,
    ply: move.ply,
    ...key,
    ...comment,
    ...(move.blur === true ? { blur: true } : {}),
  };
  const handled = await run(games, gameId, command, 'kept', move.ply).catch((err: unknown) => {
    // refused at once as the game stands (illegal, not this player's turn...): nothing recorded
    if (err instanceof ApiError && err.statusCode < 500) metrics.movesRejected.inc({ stage: 'gateway' });
    throw err;
  });
  if (handled.kind === 'unchanged') {
    if (handled.duplicateOf === null) throw new ApiError('INTERNAL');
    return replayedSubmission(games, gameId, handled.state, handled.duplicateOf, move);
  }
  const submitted = handled.appended[0] as RecordedEvent<MoveSubmitted>;
  metrics.movesSubmitted.inc();
  if (handled.after.status === 'ended') {
    // an illegal move lost the game (its terms say so): the verdict came with the submission
    await published(games, gameId, handled.appended);
    return { seq: submitted.seq };
  }
  await afterRecorded(games, gameId, 'validate', () => games.deps.enqueue(gameId, submitted.seq, submitted));
  return { seq: submitted.seq };
}

/** Events this gateway appended that end a game, on its channel and to this process' own subscribers. */
async function published(games: Games, gameId: string, appended: readonly RecordedEvent[]): Promise<void> {
  await games.deps.publish(gameId, appended).catch(() => {
    // the log has the events; subscribers catch up by seq
  });
  games.deps.deliverLocal?.(gameId, appended);
}

/** A submission replayed under its key: the same seq, its job queued again while it waits. */
async function replayedSubmission(
  games: Games,
  gameId: string,
  state: GameState,
  seq: number,
  move: Submission,
): Promise<{ seq: number }> {
  const { sente, gote } = state.lastSubmissionBy;
  const original = sente?.seq === seq ? sente : gote;
  if (original && (original.usi !== move.usi || original.ply !== move.ply)) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', `the key was used for ${original.usi} at ply ${original.ply}`);
  }
  // the first answer may have been lost with its connection before the job was queued
  // (same job id: a no-op if it is queued)
  if (state.pending.some((p) => p.seq === seq))
    await afterRecorded(games, gameId, 'validate', () => games.deps.enqueue(gameId, seq));
  return { seq };
}

/** Resignation, abort and impasse: decide, append, publish; a player's replay of the request answers its seq. */
async function endingCommand(
  games: Games,
  gameId: string,
  player: Player,
  idempotencyKey: string | undefined,
  type: 'Resign' | 'Abort' | 'DeclareImpasse',
): Promise<{ seq: number }> {
  const key = idempotencyKey === undefined ? {} : { idempotencyKey };
  const handled = await run(games, gameId, { type, playerId: player.id, ...key }, 'kept');
  if (handled.kind === 'unchanged') {
    if (handled.duplicateOf === null) throw new ApiError('INTERNAL');
    return { seq: handled.duplicateOf };
  }
  const first = handled.appended[0];
  if (first === undefined) throw new ApiError('INTERNAL');
  await published(games, gameId, handled.appended);
  return { seq: first.seq };
}

/** Whether both players' preferences allow a takeback in the game (rated or casual). */
async function preferencesAllow(games: Games, state: GameState): Promise<boolean> {
  const info = state.info;
  const look = games.deps.takebackPreferences;
  if (info === null || look === undefined) return true;
  const prefs = await look([info.sente.id, info.gote.id]);
  return [info.sente.id, info.gote.id].every((id) => preferenceAllows(prefs.get(id) ?? 'always', info.rated));
}

/**
 * A takeback proposal or answer: decide, append, publish. An accepted one starts a new turn,
 * whose flag job is scheduled here (the worker schedules one only after a verdict).
 */
async function takeback(
  games: Games,
  gameId: string,
  player: Player,
  action: TakebackAction,
): Promise<{ seq: number }> {
  const command: CommandRequest =
    action === 'propose'
      ? {
          type: 'ProposeTakeback',
          playerId: player.id,
          preferencesAllow: await preferencesAllow(games, await known(games, gameId)),
        }
      : { type: 'AnswerTakeback', playerId: player.id, accept: action === 'accept' };
  const handled = await run(games, gameId, command, 'kept');
  const first = handled.kind === 'appended' ? handled.appended[0] : undefined;
  if (handled.kind !== 'appended' || first === undefined) throw new ApiError('INTERNAL');
  await published(games, gameId, handled.appended);
  const { scheduleFlag } = games.deps;
  const after = handled.after;
  if (first.type === 'TakebackAccepted' && after.status === 'ongoing' && scheduleFlag !== undefined)
    await afterRecorded(games, gameId, 'flag', () => scheduleFlag(gameId, after));
  return { seq: first.seq };
}
