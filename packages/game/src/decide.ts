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
  PositionHistory,
  parseSfen,
  parseUsi,
  START_SFEN,
  toSfen,
} from '@shogi/rules';
import type {
  Abort,
  Berserk,
  CheckClock,
  CreateGame,
  DeclareImpasse,
  GameCommand,
  Resign,
  SubmitMove,
  ValidatePending,
} from './commands.js';
import type { GameEvent, MoveRejected, MoveSubmitted, VerdictRejection } from './events.js';
import { clockStarted, flagAt } from './game-clock.js';
import { historyAt } from './move-line.js';
import { abortBeforeBothMoved } from './ply-rule.js';
import { type Rejection, rejection } from './rejections.js';
import { colorOfPlayer, type GameState, lineOf, opponentOf } from './state.js';
import { answerTakeback, proposeTakeback } from './takeback.js';
import { UNLIMITED, validateTimeControl } from './time-control.js';
import { flagEnd, illegalMoveEnd, verdicts, verdictsAtEnd } from './verdicts.js';

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
/** Longest text a game where illegal moves lose records as an attempted move (a CSA move is 7). */
const MAX_ATTEMPT_LENGTH = 16;
/** The longest comment kept with a move; the rest is cut (an engine's line of play fits many times). */
export const MAX_COMMENT_CHARS = 2000;
/** The longest move limit a game may have: longer games are not played. */
const MAX_MOVE_LIMIT = 10_000;

/** The events a command makes on `state`, or its rejection; every ending passes the ply rule (ply-rule.ts). */
export function decide(command: GameCommand, state: GameState): Decision {
  const decision = decideCommand(command, state);
  if (!decision.ok) return decision;
  const events = abortBeforeBothMoved(state, decision.events);
  return events === decision.events ? decision : { ...decision, events };
}

function decideCommand(command: GameCommand, state: GameState): Decision {
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
    case 'Berserk':
      return berserk(command, state);
    case 'ProposeTakeback':
      return proposeTakeback(command, state);
    case 'AnswerTakeback':
      return answerTakeback(command, state);
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
  const clockRules = c.clockRules ?? 'standard';
  if (clockRules === 'csa' && timeControl.kind !== 'byoyomi' && timeControl.kind !== 'fischer')
    return reject(rejection('invalid_time_control', 'CSA clock rules need a byoyomi or Fischer clock'));
  const maxMoves = c.maxMoves;
  if (maxMoves !== undefined && (!Number.isSafeInteger(maxMoves) || maxMoves < 1 || maxMoves > MAX_MOVE_LIMIT))
    return reject(rejection('invalid_setup', `a move limit is 1 to ${MAX_MOVE_LIMIT} moves`));
  const firstMove = c.firstMoveSeconds;
  if (firstMove !== undefined && (!Number.isSafeInteger(firstMove) || firstMove < 1 || firstMove > 600))
    return reject(rejection('invalid_setup', 'a first-move time is 1 to 600 seconds'));
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
        ...(clockRules === 'standard' ? {} : { clockRules }),
        ...(c.illegalMoveLoses === true ? { illegalMoveLoses: true } : {}),
        ...(maxMoves === undefined ? {} : { maxMoves }),
        ...(firstMove === undefined || clockRules === 'csa' ? {} : { firstMoveSeconds: firstMove }),
        ...(c.noTakebacks === true ? { noTakebacks: true as const } : {}),
        ...(c.tournamentId === undefined ? {} : { tournamentId: c.tournamentId }),
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
  const loses = state.info?.illegalMoveLoses === true;
  if (move < 0) {
    if (loses && typeof c.usi === 'string' && c.usi.length <= MAX_ATTEMPT_LENGTH)
      return illegalMoveLost(c, color, state, 'malformed_usi');
    return reject(rejection('malformed_usi', `not a USI move: ${String(c.usi).slice(0, 16)}`));
  }
  const illegal = moveIllegality(historyAt(lineOf(state)).position, move);
  if (illegal !== null) {
    if (loses) return illegalMoveLost(c, color, state, illegal);
    return reject(rejection('illegal_move', `illegal move ${c.usi}: ${illegal}`, illegal));
  }
  return accept([submitted(c, color)]);
}

const submitted = (c: SubmitMove, color: ColorName): MoveSubmitted => ({
  type: 'MoveSubmitted',
  data: {
    playerId: c.playerId,
    color,
    usi: c.usi,
    ply: c.ply,
    receivedAt: c.now.toISOString(),
    ...keyOf(c),
    ...(c.comment === undefined || c.comment === '' ? {} : { comment: c.comment.slice(0, MAX_COMMENT_CHARS) }),
    ...(c.blur === true ? { blur: true as const } : {}),
  },
});

/**
 * In a game where an illegal move loses: the submission recorded, its rejection, and the end
 * (unless its time had run out first: then it is the timeout it would have been).
 */
function illegalMoveLost(c: SubmitMove, color: ColorName, state: GameState, reason: VerdictRejection): Decision {
  const seq = state.seq + 1;
  const rejected = (r: VerdictRejection): MoveRejected => ({
    type: 'MoveRejected',
    data: { submittedSeq: seq, usi: c.usi, ply: c.ply, reason: r },
  });
  const flag = state.clock === null ? null : flagAt(state.clock, state.ply, c.now.getTime());
  if (flag !== null) return accept([submitted(c, color), rejected('timeout'), flagEnd(flag, state)]);
  return accept([submitted(c, color), rejected(reason), illegalMoveEnd(color, c.now)]);
}

function validatePending(c: ValidatePending, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  if (c.seq > state.seq) return reject(rejection('unknown_submission', `no event ${c.seq} yet (last ${state.seq})`));
  return accept(verdicts(state, c.seq, c.now).events);
}

/**
 * Pending submissions get their verdicts first (one received in time still counts), then the
 * side to move flags if its time ran out by `now`. Idempotent: an ended game gives nothing.
 */
function checkClock(c: CheckClock, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const { events, state: after } = verdicts(state, state.seq, c.now);
  if (after.status !== 'ongoing' || after.clock === null) return accept(events);
  const flag = flagAt(after.clock, after.ply, c.now.getTime());
  if (flag !== null) events.push(flagEnd(flag, state));
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
 * lishogi's berserk: in a tournament's game, before one's first move, one's main time is halved.
 * A second berserk changes nothing (the main time is below the control's already).
 */
function berserk(c: Berserk, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return reject(rejection('not_a_player', 'you do not play in this game'));
  if (state.status === 'ended') return reject(rejection('game_over', 'the game is over'));
  const clock = state.clock;
  const tc = clock?.timeControl;
  if (state.info?.tournamentId == null || clock == null || (tc?.kind !== 'byoyomi' && tc?.kind !== 'fischer'))
    return reject(rejection('berserk_not_allowed', "only a tournament's timed game has berserk"));
  const moved = clockStarted(state.ply) || (state.ply === 1 && state.sideToMove !== color);
  if (moved || state.pending.some((p) => p.color === color))
    return reject(rejection('berserk_not_allowed', 'berserk only before your first move'));
  if (tc.mainSeconds === 0) return reject(rejection('berserk_not_allowed', 'no main time to halve'));
  if (clock[color].mainMs < tc.mainSeconds * 1000) return accept([]);
  return accept([{ type: 'Berserked', data: { color, at: c.now.toISOString() } }]);
}

/** Before both first moves, a player who has not moved yet may end the game (lichess's abort). */
function abort(c: Abort, state: GameState): Decision {
  if (state.status === 'none') return reject(rejection('unknown_game', 'no such game'));
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return reject(rejection('not_a_player', 'you do not play in this game'));
  const replay = replayedEnding(c, color, state);
  if (replay !== null) return replay;
  if (state.status === 'ended') return reject(rejection('game_over', 'the game is over'));
  if (state.info?.tournamentId != null)
    return reject(rejection('abort_not_allowed', 'a tournament game cannot be aborted: make your first move in time'));
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
  if (flag !== null) return accept([flagEnd(flag, state)]);
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
