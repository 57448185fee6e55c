/**
 * decide(command, state) -> events or a rejection, leaving the state as it was (the
 * position histories it plays on are move-line.ts's memo, never part of a state). The
 * gateway's SubmitMove checks what it can know at once (player, turn, ply, USI syntax,
 * single-move legality); the worker's ValidatePending replays through the rules'
 * `PositionHistory` (repetition, perpetual check per ruleset, uchifuzume...) and gives each
 * recorded submission its verdict.
 */
import {
  assessImpasse,
  type ColorName,
  HANDICAP_SFENS,
  isHandicap,
  moveIllegality,
  type Outcome,
  PositionHistory,
  parseSfen,
  parseUsi,
  START_SFEN,
  toSfen,
} from '@shogi/rules';
import type {
  Abort,
  CheckClock,
  CreateGame,
  DeclareImpasse,
  GameCommand,
  Resign,
  SubmitMove,
  ValidatePending,
} from './commands.js';
import type { GameEnded, GameEvent, MoveAccepted, MoveRejected } from './events.js';
import { evolve } from './evolve.js';
import { clockAfterMove, clockStarted, type Flag, flagAt, recordClock } from './game-clock.js';
import { historyAt, playAt } from './move-line.js';
import { type Rejection, rejection } from './rejections.js';
import { colorName, colorOfPlayer, type GameState, lineOf, opponentOf, type PendingMove } from './state.js';
import { UNLIMITED, validateTimeControl } from './time-control.js';

export type Decision =
  | { readonly ok: true; readonly events: GameEvent[]; readonly duplicateOf?: number }
  | { readonly ok: false; readonly rejection: Rejection };

const accept = (events: GameEvent[]): Decision => ({ ok: true, events });
/** The request's idempotency key as an event field, when it has one. */
const keyOf = (c: { readonly idempotencyKey?: string }): { idempotencyKey?: string } =>
  c.idempotencyKey === undefined ? {} : { idempotencyKey: c.idempotencyKey };
const reject = (r: Rejection): Decision => ({ ok: false, rejection: r });

/** Longest USI move (`7g7f+`); longer text is malformed before parsing. */
const MAX_USI_LENGTH = 5;

export function decide(command: GameCommand, state: GameState): Decision {
  switch (command.type) {
    case 'CreateGame':
      return createGame(command, state);
    case 'SubmitMove':
      return submitMove(command, state);
    case 'ValidatePending':
      return validatePending(command, state);
    case 'Resign':
      return resign(command, state);
    case 'DeclareImpasse':
      return declareImpasse(command, state);
    case 'CheckClock':
      return checkClock(command, state);
    case 'Abort':
      return abort(command, state);
    default: {
      const never: never = command;
      throw new Error(`unknown command ${JSON.stringify(never)}`);
    }
  }
}

/** board, side to move and hands: the move number of an SFEN does not change the position */
const positionOf = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');
const STANDARD_POSITION = positionOf(START_SFEN);

function createGame(c: CreateGame, state: GameState): Decision {
  if (state.status !== 'none') return reject(rejection('game_exists', `game ${c.gameId} already exists`));
  if (c.sente.id === c.gote.id) return reject(rejection('invalid_setup', 'a player cannot play against themself'));
  const handicap = c.handicap ?? null;
  if (handicap !== null && !isHandicap(handicap))
    return reject(rejection('invalid_setup', `unknown handicap ${handicap}`));
  const sfen = handicap !== null ? HANDICAP_SFENS[handicap] : (c.initialSfen ?? START_SFEN);
  const parsed = parseSfen(sfen);
  if (!parsed.ok) return reject(rejection('invalid_setup', `initial SFEN: ${parsed.error.message}`));
  const history = new PositionHistory(parsed.value, c.ruleset);
  if (history.outcome.status !== 'ongoing')
    return reject(rejection('invalid_setup', 'the initial position is already over'));
  const checked = validateTimeControl(c.timeControl ?? UNLIMITED);
  if (!checked.ok) return reject(rejection('invalid_time_control', `time control: ${checked.error.message}`));
  const timeControl = checked.value;
  const rated = c.rated ?? false;
  if (rated && timeControl.kind === 'unlimited')
    return reject(rejection('invalid_time_control', 'a rated game needs a time control'));
  const initialSfen = toSfen(parsed.value);
  // a set-up position decides the game before it starts (a mate in one, a lone king), so a
  // rating only ever follows the positions both players know they agreed to
  if (rated && handicap === null && positionOf(initialSfen) !== STANDARD_POSITION)
    return reject(rejection('rated_custom_position', 'a rated game starts from the standard position or a handicap'));
  return accept([
    {
      type: 'GameCreated',
      data: {
        gameId: c.gameId,
        sente: c.sente,
        gote: c.gote,
        ruleset: c.ruleset,
        handicap,
        initialSfen,
        timeControl,
        rated,
        createdAt: c.now.toISOString(),
      },
    },
  ]);
}

function submitMove(c: SubmitMove, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return reject(rejection('not_a_player', 'you do not play in this game'));
  const last = state.lastSubmissionBy[color];
  if (c.idempotencyKey !== undefined && last?.idempotencyKey === c.idempotencyKey && last.playerId === c.playerId) {
    return { ok: true, events: [], duplicateOf: last.seq };
  }
  if (state.status === 'ended') return reject(rejection('game_over', 'the game is over'));
  if (state.sideToMove !== color) return reject(rejection('not_your_turn', `${state.sideToMove} is to move`));
  if (state.pending.length > 0) return reject(rejection('move_pending', 'your previous move awaits its verdict'));
  if (c.ply !== state.ply) {
    return reject(rejection('stale_ply', `the game is at ply ${state.ply}, the move was sent for ply ${c.ply}`));
  }
  const move = typeof c.usi === 'string' && c.usi.length <= MAX_USI_LENGTH ? parseUsi(c.usi) : -1;
  if (move < 0) return reject(rejection('malformed_usi', `not a USI move: ${String(c.usi).slice(0, 16)}`));
  const illegal = moveIllegality(historyAt(lineOf(state)).position, move);
  if (illegal !== null) return reject(rejection('illegal_move', `illegal move ${c.usi}: ${illegal}`, illegal));
  return accept([
    {
      type: 'MoveSubmitted',
      data: {
        playerId: c.playerId,
        color,
        usi: c.usi,
        ply: c.ply,
        receivedAt: c.now.toISOString(),
        ...keyOf(c),
      },
    },
  ]);
}

function validatePending(c: ValidatePending, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  if (c.seq > state.seq) return reject(rejection('unknown_submission', `no event ${c.seq} yet (last ${state.seq})`));
  return accept(verdicts(state, c.seq, c.now).events);
}

/** The verdicts on every pending submission up to `seq`, and the state after them. */
function verdicts(state: GameState, seq: number, now: Date): { events: GameEvent[]; state: GameState } {
  const events: GameEvent[] = [];
  let working = state;
  for (const p of state.pending) {
    if (p.seq > seq) break;
    for (const e of verdict(p, working, now)) {
      events.push(e);
      working = evolve(working, e);
    }
  }
  return { events, state: working };
}

/** The end of a game whose side to move ran out of time: on time, or aborted before its first move. */
const flagEnd = (f: Flag): GameEnded => ({
  type: 'GameEnded',
  data: {
    winner: f.kind === 'timeout' ? opponentOf(f.color) : null,
    reason: f.kind === 'timeout' ? 'timeout' : 'abort',
    at: new Date(f.at).toISOString(),
  },
});

/**
 * Pending submissions get their verdicts first (one received in time still counts), then the
 * side to move flags if its time ran out by `now`. Idempotent: an ended game gives nothing.
 */
function checkClock(c: CheckClock, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const { events, state: after } = verdicts(state, state.seq, c.now);
  if (after.status !== 'ongoing' || after.clock === null) return accept(events);
  const flag = flagAt(after.clock, after.ply, c.now.getTime());
  if (flag !== null) events.push(flagEnd(flag));
  return accept(events);
}

/**
 * A player's replay of the request that ended the game (the same command under the same key)
 * is answered with that request's seq and records nothing. Keys are each player's own, as
 * for moves: the opponent's request under the same key is a new request.
 */
function replayedEnding(c: Resign | Abort | DeclareImpasse, color: ColorName, state: GameState): Decision | null {
  const ending = state.endedBy;
  if (ending === null || c.idempotencyKey === undefined) return null;
  if (ending.command !== c.type || ending.color !== color || ending.idempotencyKey !== c.idempotencyKey) return null;
  return { ok: true, events: [], duplicateOf: ending.seq };
}

/**
 * The verdicts of the submissions still pending when a player ends the game: game_over, as
 * the worker would give them. A game then never ends with a submission waiting for a job
 * that was lost, which the sweeper (looking at ongoing games) would not queue again.
 */
const verdictsAtEnd = (state: GameState): MoveRejected[] =>
  state.pending.map((p) => ({
    type: 'MoveRejected',
    data: { submittedSeq: p.seq, usi: p.usi, ply: p.ply, reason: 'game_over' },
  }));

/** Before both first moves, a player who has not moved yet may end the game (lichess's abort). */
function abort(c: Abort, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return reject(rejection('not_a_player', 'you do not play in this game'));
  const replay = replayedEnding(c, color, state);
  if (replay !== null) return replay;
  if (state.status === 'ended') return reject(rejection('game_over', 'the game is over'));
  // at ply 1 the side not on move made the first move
  const moved = clockStarted(state.ply) || (state.ply === 1 && state.sideToMove !== color);
  if (moved) return reject(rejection('too_late_to_abort', 'a game can be aborted only before your first move'));
  if (state.pending.some((p) => p.color === color))
    return reject(rejection('move_pending', 'your first move awaits its verdict'));
  return accept([
    {
      type: 'GameEnded',
      data: { winner: null, reason: 'abort', at: c.now.toISOString(), ...keyOf(c), abortedBy: color },
    },
    ...verdictsAtEnd(state),
  ]);
}

/** The verdict on one submission in `state`: MoveRejected, or MoveAccepted (+ GameEnded). */
function verdict(p: PendingMove, state: GameState, now: Date): GameEvent[] {
  const rejected = (reason: MoveRejected['data']['reason']): MoveRejected => ({
    type: 'MoveRejected',
    data: { submittedSeq: p.seq, usi: p.usi, ply: p.ply, reason },
  });
  if (state.status === 'ended') return [rejected('game_over')];
  if (p.ply !== state.ply) return [rejected('stale_ply')];
  if (p.color !== state.sideToMove) return [rejected('not_your_turn')];
  // the clock first: a move that came after its time ran out is not looked at
  const timing = state.clock === null ? null : clockAfterMove(state.clock, state.ply, p.receivedAt);
  if (timing?.kind === 'late')
    return [rejected('timeout'), flagEnd({ kind: timing.flag, color: p.color, at: timing.at })];
  // the evolve of this MoveAccepted finds the move played (move-line.ts)
  const { played, history } = playAt(lineOf(state), p.usi);
  if (!played.ok) return [rejected(played.error)];
  const accepted: MoveAccepted = {
    type: 'MoveAccepted',
    data: {
      submittedSeq: p.seq,
      ply: state.ply + 1,
      usi: p.usi,
      sfen: toSfen(history.position),
      check: history.position.inCheck(),
      ...(timing === null ? {} : { clock: recordClock(timing.clock, state.ply + 1) }),
    },
  };
  const ended = endOf(played.value, now);
  return ended === null ? [accepted] : [accepted, ended];
}

function endOf(o: Outcome, now: Date): GameEnded | null {
  const at = now.toISOString();
  const ended = (winner: ColorName | null, reason: GameEnded['data']['reason']): GameEnded => ({
    type: 'GameEnded',
    data: { winner, reason, at },
  });
  switch (o.status) {
    case 'ongoing':
      return null;
    case 'checkmate':
      return ended(colorName(o.winner), 'checkmate');
    case 'stalemate':
      return ended(o.winner === null ? null : colorName(o.winner), 'stalemate');
    case 'sennichite':
      return ended(null, 'sennichite');
    case 'perpetual_check':
      return ended(colorName(o.winner), 'perpetual_check');
    case 'impasse':
      return ended(colorName(o.winner), 'impasse');
    default: {
      const never: never = o;
      throw new Error(`unknown outcome ${JSON.stringify(never)}`);
    }
  }
}

function resign(c: Resign, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return reject(rejection('not_a_player', 'you do not play in this game'));
  const replay = replayedEnding(c, color, state);
  if (replay !== null) return replay;
  if (state.status === 'ended') return reject(rejection('game_over', 'the game is over'));
  const at = c.now.toISOString();
  return accept([
    { type: 'Resigned', data: { color, at, ...keyOf(c) } },
    { type: 'GameEnded', data: { winner: opponentOf(color), reason: 'resignation', at } },
    ...verdictsAtEnd(state),
  ]);
}

/** Impasse is declared on one's own turn, with no move of one's own awaiting its verdict. */
function declareImpasse(c: DeclareImpasse, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return reject(rejection('not_a_player', 'you do not play in this game'));
  const replay = replayedEnding(c, color, state);
  if (replay !== null) return replay;
  if (state.status === 'ended') return reject(rejection('game_over', 'the game is over'));
  if (state.sideToMove !== color) return reject(rejection('not_your_turn', `${state.sideToMove} is to move`));
  // no submission is pending past this point, so the ending below leaves none without a verdict
  if (state.pending.length > 0) return reject(rejection('move_pending', 'your previous move awaits its verdict'));
  // a declaration after one's time ran out comes too late: the game ends on time
  const flag = state.clock === null ? null : flagAt(state.clock, state.ply, c.now.getTime());
  if (flag !== null) return accept([flagEnd(flag)]);
  const a = assessImpasse(historyAt(lineOf(state)).position);
  const at = c.now.toISOString();
  return accept([
    {
      type: 'ImpasseDeclared',
      data: { color, valid: a.valid, points: a.points, piecesInCamp: a.piecesInCamp, at, ...keyOf(c) },
    },
    { type: 'GameEnded', data: { winner: a.valid ? color : opponentOf(color), reason: 'impasse', at } },
  ]);
}
