/**
 * One game between two players for benchmarks, refereed by packages/rules: each side's move
 * comes from an injected `search` (an engine behind a pool, a random mover in tests), is
 * played only if legal, and the game ends as the rules say (mate, repetition, perpetual
 * check, impasse), by a resignation, or at a ply limit. House bots (players with a level)
 * resign by their level's policy; every side declares impasse as soon as the rules grant it.
 */
import {
  type Color,
  type ColorName,
  type Outcome,
  PositionHistory,
  parseSfen,
  type Ruleset,
  START_SFEN,
  toSfen,
} from '@shogi/rules';
import type { Bestmove, PositionSpec, UsiScore } from '@shogi/usi';
import { shouldDeclareImpasse } from './impasse.js';
import type { Level } from './levels.js';
import { shouldResign } from './resignation.js';

export interface MatchPlayer {
  readonly name: string;
  /** A house bot's level, whose resignation policy then applies; absent for other players. */
  readonly level?: Level;
}

export interface MatchSearchRequest<P extends MatchPlayer = MatchPlayer> {
  readonly player: P;
  readonly side: ColorName;
  /** The start and the moves since: what an engine is given, history included for repetitions. */
  readonly position: PositionSpec;
  /** The position now, for players that read the board themselves. */
  readonly sfen: string;
  readonly ply: number;
}

/** A player's answer; packages/usi's SearchResult is one. */
export interface MatchSearchAnswer {
  readonly bestmove: Bestmove;
  /** From the side to move, as the engine reported it: what the resignation policy reads. */
  readonly score?: UsiScore;
}

export type MatchSearch<P extends MatchPlayer = MatchPlayer> = (
  request: MatchSearchRequest<P>,
) => Promise<MatchSearchAnswer>;

export interface MatchConfig<P extends MatchPlayer = MatchPlayer> {
  readonly sente: P;
  readonly gote: P;
  readonly search: MatchSearch<P>;
  /** The game is a draw (`max_plies`) once this many moves are played. */
  readonly maxPlies: number;
  /** The start position (a handicap, a study); the standard one by default. */
  readonly sfen?: string;
  readonly ruleset?: Ruleset;
}

export const MATCH_ENDINGS = [
  'checkmate',
  'stalemate',
  'sennichite',
  'perpetual_check',
  'impasse',
  'resignation',
  /** The side to move answered a move the rules refuse: it loses, as a player would. */
  'illegal_move',
  'max_plies',
] as const;
export type MatchEnding = (typeof MATCH_ENDINGS)[number];

export interface MatchResult {
  readonly sente: string;
  readonly gote: string;
  /** Null for a draw. */
  readonly winner: ColorName | null;
  readonly ending: MatchEnding;
  readonly sfen: string;
  readonly moves: readonly string[];
  /** For `illegal_move`, the move and the rules' reason. */
  readonly detail?: string;
}

type Ending = { readonly winner: ColorName | null; readonly ending: MatchEnding; readonly detail?: string };

const NAMES: readonly [ColorName, ColorName] = ['sente', 'gote'];
const nameOf = (color: Color): ColorName => NAMES[color] as ColorName;
const other = (side: ColorName): ColorName => (side === 'sente' ? 'gote' : 'sente');

function endingOf(outcome: Outcome): Ending | null {
  switch (outcome.status) {
    case 'ongoing':
      return null;
    case 'sennichite':
      return { winner: null, ending: 'sennichite' };
    case 'stalemate':
      return { winner: outcome.winner === null ? null : nameOf(outcome.winner), ending: 'stalemate' };
    default:
      return { winner: nameOf(outcome.winner), ending: outcome.status };
  }
}

/** The ending a declaration of impasse by the side to move brings: a win if the rules grant it, else a loss. */
function declareImpasse(game: PositionHistory): Ending | null {
  const declared = game.declareImpasse();
  return declared.ok ? endingOf(declared.value) : null;
}

interface Board {
  readonly game: PositionHistory;
  readonly moves: string[];
  readonly scores: Record<ColorName, (UsiScore | undefined)[]>;
}

/** Plays the side to move's answer; the ending it brings, or null to go on. */
function applyAnswer(board: Board, side: ColorName, player: MatchPlayer, answer: MatchSearchAnswer): Ending | null {
  const { bestmove } = answer;
  if (bestmove.kind !== 'move')
    return bestmove.kind === 'win' ? declareImpasse(board.game) : { winner: other(side), ending: 'resignation' };
  const scores = board.scores[side];
  scores.push(answer.score);
  if (player.level !== undefined && shouldResign(player.level, scores))
    return { winner: other(side), ending: 'resignation' };
  const played = board.game.playUsi(bestmove.move);
  if (!played.ok) return { winner: other(side), ending: 'illegal_move', detail: `${bestmove.move}: ${played.error}` };
  board.moves.push(bestmove.move);
  return endingOf(played.value);
}

/** Plays one game to its end; rejects only when `search` does, or on a bad configuration. */
export async function playMatch<P extends MatchPlayer>(config: MatchConfig<P>): Promise<MatchResult> {
  if (!Number.isSafeInteger(config.maxPlies) || config.maxPlies < 0)
    throw new RangeError('maxPlies is a whole number, at least 0');
  const sfen = config.sfen ?? START_SFEN;
  const start = parseSfen(sfen);
  if (!start.ok) throw new RangeError(`the start SFEN is invalid: ${start.error.code}`);
  const game = new PositionHistory(start.value, config.ruleset ?? 'default');
  const board: Board = { game, moves: [], scores: { sente: [], gote: [] } };

  let end = endingOf(game.outcome);
  while (end === null && board.moves.length < config.maxPlies) {
    const side = nameOf(game.position.side);
    if (shouldDeclareImpasse(game.position)) {
      end = declareImpasse(game);
      break;
    }
    const player = config[side];
    const position = { sfen, moves: [...board.moves] };
    const answer = await config.search({
      player,
      side,
      position,
      sfen: toSfen(game.position),
      ply: board.moves.length,
    });
    end = applyAnswer(board, side, player, answer);
  }
  const { winner, ending, detail }: Ending = end ?? { winner: null, ending: 'max_plies' };
  return {
    sente: config.sente.name,
    gote: config.gote.name,
    winner,
    ending,
    sfen,
    moves: board.moves,
    ...(detail === undefined ? {} : { detail }),
  };
}
