/**
 * The bench's own engine (beside the server's pool): the scripted accounts' moves, and the
 * screening's searches timed beside a plain analysis's on the same positions.
 */
import { analysisOptions, LEVELS, type Level, levelOptions } from '@shogi/engine-bots';
import { EnginePool, type PositionSpec, type UsiScore } from '@shogi/usi';

const RESOURCES = { hash: 16, threads: 1 };
/** the screening's lines (apps/engine SCREENING_LINES: lila and lishogi count moves among the first three) */
export const SCREENING_LINES = 3;

export interface BenchEngine {
  /** full strength to `depth` (Skill Level 20, one line) */
  best(position: PositionSpec, depth: number): Promise<string>;
  /** a house level's move (its Skill Level, depth and time cap) */
  level(position: PositionSpec, level: Level): Promise<string>;
  /** one position as the screening searches it (three lines) or as an analysis does (one) */
  search(
    position: PositionSpec,
    depth: number,
    lines: number,
  ): Promise<{ score: UsiScore; lines: { move: string; score: UsiScore }[] }>;
  close(): Promise<void>;
}

export async function startBenchEngine(path: string, size: number): Promise<BenchEngine> {
  const pool = await EnginePool.start({ size, engine: { path, options: { Hash: RESOURCES.hash, Threads: 1 } } });
  const moveOf = (bestmove: { kind: string; move?: string }) => {
    if (bestmove.kind !== 'move' || bestmove.move === undefined) throw new Error('the engine has no move');
    return bestmove.move;
  };
  return {
    best: (position, depth) =>
      pool.run(async (engine) => {
        await engine.setOptions(analysisOptions(RESOURCES));
        return moveOf((await engine.search({ position, limits: { kind: 'fixed', depth } })).bestmove);
      }),
    level: (position, level) =>
      pool.run(async (engine) => {
        await engine.setOptions(levelOptions(level, RESOURCES));
        const spec = LEVELS[level];
        const limits = { kind: 'fixed', depth: spec.depth, movetime: spec.movetimeMs } as const;
        return moveOf((await engine.search({ position, limits })).bestmove);
      }),
    search: (position, depth, lines) =>
      pool.run(async (engine) => {
        await engine.setOptions({ ...analysisOptions(RESOURCES), MultiPV: lines });
        const result = await engine.search({ position, limits: { kind: 'fixed', depth } });
        const best = result.infos[0];
        if (best?.score === undefined) throw new Error('the engine gave no score');
        const found = result.infos.flatMap((info) =>
          info.pv?.[0] === undefined || info.score === undefined ? [] : [{ move: info.pv[0], score: info.score }],
        );
        return { score: best.score, lines: found.slice(0, lines) };
      }),
    close: () => pool.close(),
  };
}
