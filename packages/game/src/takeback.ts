/**
 * Takebacks as lichess and lishogi have them: a player proposes to take back their last move,
 * the opponent accepts or declines, and the proposer may withdraw. One proposal is pending at
 * a time, and a move voids it (evolve.ts), since it was about the position before that move.
 * Accepted, it undoes the proposer's last move: one move when the opponent is on move, two
 * (the opponent's reply too) when the proposer is.
 *
 * The clocks are not turned back (lichess's `Clock.takeback` only switches the running side):
 * each side keeps the time it has at the acceptance, the side then on move starts a fresh
 * turn from it. Whether a game allows takebacks at all: its terms (`noTakebacks`, a tournament
 * or CSA game), then both players' preferences, which the caller reads from their accounts.
 */
import { toSfen } from '@shogi/rules';
import { type Clock, periodLength, remaining } from './clock.js';
import type { AnswerTakeback, ProposeTakeback } from './commands.js';
import type { Decision } from './decide.js';
import type { GameEvent, RecordedClock } from './events.js';
import { clockRuns, flagAt, recordClock } from './game-clock.js';
import { historyAt, type MoveLine } from './move-line.js';
import { rejection } from './rejections.js';
import { colorOfPlayer, type GameState, lineOf, sideOfSfen } from './state.js';
import { flagEnd } from './verdicts.js';

/** A player's takeback preference, as lichess's and lishogi's `takeback` preference (default `always`). */
export const TAKEBACK_PREFERENCES = ['always', 'casual', 'never'] as const;
export type TakebackPreference = (typeof TAKEBACK_PREFERENCES)[number];
export const DEFAULT_TAKEBACK_PREFERENCE: TakebackPreference = 'always';

/** Whether a player's preference allows takebacks in a game, rated or casual. */
export const preferenceAllows = (pref: TakebackPreference, rated: boolean): boolean =>
  pref === 'always' || (pref === 'casual' && !rated);

const ok = (events: GameEvent[]): Decision => ({ ok: true, events });
const no = (code: Parameters<typeof rejection>[0], message: string): Decision => ({
  ok: false,
  rejection: rejection(code, message),
});

/** How many moves a proposal by `proposer` takes back in `state`: theirs, and the reply when they are on move. */
export const takebackPlies = (state: GameState, proposer: GameState['sideToMove']): number =>
  state.sideToMove === proposer ? 2 : 1;

export function proposeTakeback(c: ProposeTakeback, state: GameState): Decision {
  if (state.status === 'none' || state.info === null) return no('unknown_game', 'no such game');
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return no('not_a_player', 'you do not play in this game');
  if (state.status === 'ended') return no('game_over', 'the game is over');
  if (state.info.noTakebacks) return no('takeback_not_allowed', 'this game allows no takebacks');
  if (!c.preferencesAllow) return no('takeback_not_allowed', "the players' preferences allow no takeback here");
  if (state.takebackBy !== null) return no('takeback_pending', 'a takeback proposal is pending already');
  if (state.ply < takebackPlies(state, color)) return no('no_move_to_take_back', 'you have no move to take back');
  if (state.pending.length > 0) return no('move_pending', 'a move awaits its verdict');
  return ok([{ type: 'TakebackProposed', data: { color, at: c.now.toISOString() } }]);
}

export function answerTakeback(c: AnswerTakeback, state: GameState): Decision {
  if (state.status === 'none') return no('unknown_game', 'no such game');
  const color = colorOfPlayer(state, c.playerId);
  if (color === null) return no('not_a_player', 'you do not play in this game');
  if (state.status === 'ended') return no('game_over', 'the game is over');
  const proposer = state.takebackBy;
  const at = c.now.toISOString();
  // declining one's own proposal withdraws it
  if (!c.accept) {
    if (proposer === null) return no('no_takeback_proposal', 'no takeback proposal is pending');
    return ok([{ type: 'TakebackDeclined', data: { color, at } }]);
  }
  if (proposer === null || proposer === color)
    return no('no_takeback_proposal', "no takeback proposal of your opponent's is pending");
  if (state.pending.length > 0) return no('move_pending', 'a move awaits its verdict');
  const now = c.now.getTime();
  // an answer after the side to move's time ran out comes too late: the game ends on time
  const flag = state.clock === null ? null : flagAt(state.clock, state.ply, now);
  if (flag !== null) return ok([flagEnd(flag, state)]);
  const plies = takebackPlies(state, proposer);
  let line: MoveLine = lineOf(state);
  for (let i = 0; i < plies && line.previous !== null; i++) line = line.previous;
  const position = historyAt(line).position;
  const sfen = toSfen(position);
  const clock = state.clock === null ? null : clockAtTakeback(state.clock, state.ply, line.ply, sfen, now);
  return ok([
    {
      type: 'TakebackAccepted',
      data: {
        color,
        plies,
        ply: line.ply,
        sfen,
        check: position.inCheck(),
        at,
        ...(clock === null ? {} : { clock }),
      },
    },
  ]);
}

/**
 * The clocks after a takeback at `now`: the side on move is charged its turn so far (its period
 * starting afresh next turn, as after a move, with no increment), and the side to move after
 * the takeback starts its turn at `now`.
 */
function clockAtTakeback(clock: Clock, ply: number, newPly: number, sfen: string, now: number): RecordedClock {
  let { sente, gote } = clock;
  if (clockRuns(clock, ply)) {
    const running = remaining(clock, now)[clock.toMove];
    const atRest = { ...running, periodMs: periodLength(clock.timeControl) };
    if (clock.toMove === 'sente') sente = atRest;
    else gote = atRest;
  }
  const after: Clock = { ...clock, sente, gote, toMove: sideOfSfen(sfen), turnStartedAt: now };
  return recordClock(after, newPly);
}
