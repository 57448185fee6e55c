/**
 * A house bot's move, as the engine role computes it: from a position (start, moves, ruleset)
 * and the clock as the game view gave it, to a move, a resignation or an impasse declaration.
 * The engine is leased from the shared pool, so the level's options are set before every
 * search; the engine's answer is returned only once the rules say it is legal, and `none`
 * otherwise, so that the requester plays its own built-in move instead.
 */
import {
  type EngineMoveJobData,
  type EngineMoveResult,
  type EngineResources,
  levelOptions,
  searchLimitsFor,
  shouldDeclareImpasse,
  shouldResign,
} from '@shogi/engine-bots';
import {
  type BestmoveCheck,
  checkBestmove,
  type EnginePool,
  type PositionSpec,
  PRIORITY,
  type SearchResult,
  type UsiScore,
} from '@shogi/usi';
import { replayPosition } from './replay.js';

export interface EngineMoveContext {
  readonly pool: EnginePool;
  readonly resources: EngineResources;
  readonly onWarning: (message: string) => void;
}

/** The bot's answer; `none` when the game is already over here or the engine gave nothing playable. */
export async function engineMove(request: EngineMoveJobData, context: EngineMoveContext): Promise<EngineMoveResult> {
  const game = replayPosition(request.initialSfen, request.ruleset, request.moves);
  if (game === null) return { kind: 'none', reason: 'the position cannot be set up' };
  if (game.outcome.status !== 'ongoing') return { kind: 'none', reason: 'the game is over in this position' };
  if (shouldDeclareImpasse(game.position)) return { kind: 'impasse' };
  const position: PositionSpec = { sfen: request.initialSfen, moves: [...request.moves] };
  let result: SearchResult;
  try {
    result = await search(request, position, context);
  } catch (err) {
    context.onWarning(`the engine gave no move (${String(err)})`);
    return { kind: 'none', reason: `the engine gave no move: ${String(err)}` };
  }
  if (shouldResign(request.level, [...request.scores, result.score])) return { kind: 'resign' };
  const check = checkBestmove(position, result.bestmove, request.ruleset);
  const answer = answerOf(check, result.score);
  if (answer !== null) return answer;
  context.onWarning(`the engine's answer was refused by the rules (${describe(check)})`);
  return { kind: 'none', reason: `the engine's answer was refused by the rules: ${describe(check)}` };
}

/** The search on a leased engine; the clock is read once the engine is leased, not while queued. */
function search(request: EngineMoveJobData, position: PositionSpec, context: EngineMoveContext): Promise<SearchResult> {
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
export function answerOf(check: BestmoveCheck, score: UsiScore | undefined): EngineMoveResult | null {
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
