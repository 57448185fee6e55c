/**
 * One position's evaluation for an analysis: a search to the analysis depth on an engine
 * leased from the shared pool behind any bot move (PRIORITY.analysis), at full strength.
 */
import { analysisOptions, type EngineResources, type PositionEvaluation } from '@shogi/engine-bots';
import { type EnginePool, type PositionSpec, PRIORITY, type SearchResult } from '@shogi/usi';

/** `signal`: the analysis is being put back in the queue (shutdown): a search waiting or running is cut short. */
export type Evaluate = (position: PositionSpec, depth: number, signal?: AbortSignal) => Promise<PositionEvaluation>;

/**
 * The search's verdict. A position where the game is over still has one: the engine says
 * `score mate 0` and `bestmove resign` there (the side to move is mated), and the line is empty.
 */
export function evaluationOf(result: SearchResult): PositionEvaluation {
  if (result.score === undefined) throw new Error('the engine gave no score');
  const pv = result.infos[0]?.pv ?? [];
  // a line the engine did not report still starts with the move it chose
  if (pv.length === 0 && result.bestmove.kind === 'move') return { score: result.score, pv: [result.bestmove.move] };
  return { score: result.score, pv: [...pv] };
}

export function poolEvaluator(pool: EnginePool, resources: EngineResources): Evaluate {
  return (position, depth, signal) =>
    pool.run(
      async (engine) => {
        // options stay set on a pooled engine, and the bots' moves set their own
        await engine.setOptions(analysisOptions(resources));
        const search = { position, limits: { kind: 'fixed', depth } } as const;
        return evaluationOf(await engine.search(search, signal === undefined ? {} : { signal }));
      },
      signal === undefined ? { priority: PRIORITY.analysis } : { priority: PRIORITY.analysis, signal },
    );
}
