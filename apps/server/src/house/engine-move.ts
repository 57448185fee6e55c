/**
 * A house bot's move: from a position (start, moves, ruleset) and the clock as the game view
 * gave it, to a move, a resignation or an impasse declaration. The engine is leased from a
 * shared pool, so the level's options are set before every search; the engine's answer is
 * played only once the rules say it is legal, else a random legal move stands in for it.
 * Nothing here knows about the gateway: a later engine role can take it as it is.
 */
import {
  type EngineResources,
  type Level,
  levelOptions,
  searchLimitsFor,
  shouldDeclareImpasse,
  shouldResign,
} from '@shogi/engine-bots';
import type { ClockView, Side, TimeControl } from '@shogi/protocol';
import type { PositionHistory, Ruleset } from '@shogi/rules';
import {
  type BestmoveCheck,
  checkBestmove,
  type EnginePool,
  type PositionSpec,
  PRIORITY,
  type SearchResult,
  type UsiScore,
} from '@shogi/usi';
import { replay } from '../demo/bot.js';
import { chooseMove, type Random } from '../demo/brain.js';

export interface MoveRequest {
  readonly level: Level;
  readonly initialSfen: string;
  readonly moves: readonly string[];
  readonly ruleset: Ruleset;
  /** the bot's side, which is on move */
  readonly side: Side;
  /** as the game view gave it (null: no clock) */
  readonly clock: ClockView | null;
  readonly timeControl: TimeControl;
  /** the scores of the bot's own searches in this game, oldest first: for resigning */
  readonly scores: readonly (UsiScore | undefined)[];
}

export type EngineAnswer =
  /** `score` is the search's, from the bot's side; absent when a random move stood in */
  | { readonly kind: 'move'; readonly usi: string; readonly score?: UsiScore }
  | { readonly kind: 'resign' }
  | { readonly kind: 'impasse' };

export interface EngineMoveContext {
  readonly pool: EnginePool;
  readonly resources: EngineResources;
  /** for the random stand-in move */
  readonly random: Random;
  readonly onWarning: (message: string) => void;
}

/** The bot's answer, or null when the game is already over in this position. */
export async function engineMove(request: MoveRequest, context: EngineMoveContext): Promise<EngineAnswer | null> {
  const game = replay(request.initialSfen, request.ruleset, request.moves);
  if (game.outcome.status !== 'ongoing') return null;
  if (shouldDeclareImpasse(game.position)) return { kind: 'impasse' };
  const position: PositionSpec = { sfen: request.initialSfen, moves: [...request.moves] };
  let result: SearchResult;
  try {
    result = await search(request, position, context);
  } catch (err) {
    context.onWarning(`the engine gave no move (${String(err)}); playing a random legal move`);
    return standIn(game, context.random);
  }
  if (shouldResign(request.level, [...request.scores, result.score])) return { kind: 'resign' };
  const check = checkBestmove(position, result.bestmove, request.ruleset);
  return answerOf(check, result.score) ?? warnAndStandIn(check, game, context);
}

/** The search on a leased engine; the clock is read once the engine is leased, not while queued. */
function search(request: MoveRequest, position: PositionSpec, context: EngineMoveContext): Promise<SearchResult> {
  return context.pool.run(
    async (engine) => {
      await engine.setOptions(levelOptions(request.level, context.resources));
      const limits = searchLimitsFor(request.level, request.clock, request.side, request.timeControl, {
        now: Date.now(),
      });
      // stopped at the movetime itself: the margin for the way back is already inside it
      const timeoutMs = limits.kind === 'fixed' ? limits.movetime : undefined;
      return engine.search({ position, limits, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    },
    { priority: PRIORITY.move },
  );
}

/** What the rules make of the engine's answer; null when it must not be played. */
export function answerOf(check: BestmoveCheck, score: UsiScore | undefined): EngineAnswer | null {
  switch (check.verdict) {
    case 'move':
      return score === undefined ? { kind: 'move', usi: check.move } : { kind: 'move', usi: check.move, score };
    case 'win':
      return { kind: 'impasse' };
    case 'resign':
      return { kind: 'resign' };
    default:
      return null;
  }
}

function warnAndStandIn(check: BestmoveCheck, game: PositionHistory, context: EngineMoveContext): EngineAnswer | null {
  context.onWarning(`the engine's answer was refused by the rules (${describe(check)}); playing a random legal move`);
  return standIn(game, context.random);
}

function standIn(game: PositionHistory, random: Random): EngineAnswer | null {
  const usi = chooseMove(game, random);
  return usi === null ? null : { kind: 'move', usi };
}

function describe(check: BestmoveCheck): string {
  switch (check.verdict) {
    case 'illegal_move':
      return `illegal move ${check.move}: ${String(check.reason)}`;
    case 'invalid_declaration':
      return 'an impasse declaration the rules do not grant';
    case 'bad_position':
      return `bad position: ${check.problem.code}`;
    default:
      return check.verdict;
  }
}
