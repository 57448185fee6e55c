/**
 * A game's positions searched as the screening searches them (every position to the screening
 * depth, three lines) and as a plain analysis does (the same positions, one line at the
 * analysis depth), each timed on the bench's engine; and a player's verdict from the first,
 * with the server's own code (apps/engine's player-games, @shogi/fairplay's rules).
 */
import { assessGame, flagsOf, type GameVerdict, type Signals, type Speed, signalsOf } from '@shogi/fairplay';
import { sideOfSfen } from '@shogi/rules';
import { playerGameOf, type ScreenedPosition } from '../../apps/engine/src/screening/player-games.js';
import { type BenchEngine, SCREENING_LINES } from './engine.js';

export interface GameToScreen {
  readonly sfen: string;
  readonly moves: readonly string[];
  /** per move: ms, or null where the record has none */
  readonly times: readonly (number | null)[];
  readonly speed: Speed;
  readonly clockSeconds: number | null;
}

export async function screenPositions(engine: BenchEngine, game: GameToScreen, depth: number) {
  const started = performance.now();
  const positions: ScreenedPosition[] = [];
  for (let ply = 0; ply <= game.moves.length; ply++)
    positions.push(await engine.search({ sfen: game.sfen, moves: game.moves.slice(0, ply) }, depth, SCREENING_LINES));
  return { positions, ms: performance.now() - started };
}

export async function plainAnalysisMs(engine: BenchEngine, game: GameToScreen, depth: number): Promise<number> {
  const started = performance.now();
  for (let ply = 0; ply <= game.moves.length; ply++)
    await engine.search({ sfen: game.sfen, moves: game.moves.slice(0, ply) }, depth, 1);
  return performance.now() - started;
}

/** The side's signals and verdict, judged as if it had won (the strictest: no step down for a loss). */
export function verdictOf(
  game: GameToScreen,
  positions: readonly ScreenedPosition[],
  side: 'sente' | 'gote',
): { verdict: GameVerdict; signals: Signals; why: string | null } {
  const firstSide = sideOfSfen(game.sfen);
  const facts = {
    initialSfen: game.sfen,
    ruleset: 'default' as const,
    moves: game.moves,
    sente: 'sente',
    gote: 'gote',
    speed: game.speed,
    clockSeconds: game.clockSeconds,
    winner: side,
    endedAt: new Date().toISOString(),
    timing: game.times.map((timeMs) => ({ timeMs, inByoyomi: false, blur: false })),
  };
  const player = playerGameOf(facts, positions, side, firstSide);
  const signals = signalsOf(player);
  const { verdict, why } = assessGame(flagsOf(signals, player), true);
  return { verdict, signals, why };
}
