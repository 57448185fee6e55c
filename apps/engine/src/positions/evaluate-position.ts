/**
 * One position evaluated on request: searched on a pooled engine to the job's depth or time,
 * whichever comes first, every new depth published as it comes. The search leases its engine
 * as `preemptible` behind bot moves (PRIORITY.position): when a bot move waits and no engine
 * is free, the search is stopped (USI `stop`), gives the engine back, and resumes once an
 * engine is free again, sending only depths deeper than those already sent.
 */
import { type EngineResources, type PositionJobData, positionOptions } from '@shogi/engine-bots';
import type { PositionEvalDepth, PositionEvalEnd } from '@shogi/protocol';
import { type EnginePool, type PositionSpec, PRIORITY, type SearchResult } from '@shogi/usi';
import { DepthLines } from './depth-lines.js';

export interface EvaluatePositionContext {
  readonly pool: EnginePool;
  readonly resources: EngineResources;
  /** each new depth line, as it comes */
  readonly send: (line: PositionEvalDepth) => void;
  /** fires when the evaluation is to stop at once (its client left, a newer request, shutdown) */
  readonly signal: AbortSignal;
  readonly now?: () => number;
}

/** One lease's search; no result when the lease was taken back before it began. */
type Slice = { readonly result: SearchResult | null; readonly preempted: boolean };

/** Searches until the depth or the time is reached or the signal fires; answers the end line. */
export async function evaluatePosition(
  job: PositionJobData,
  context: EvaluatePositionContext,
): Promise<PositionEvalEnd> {
  const { pool, signal } = context;
  const now = context.now ?? Date.now;
  const position: PositionSpec = { sfen: job.sfen, moves: [...job.moves] };
  const lines = new DepthLines(position);
  let deadline: number | null = null;
  let bestmove: string | null = null;
  const end = (reason: PositionEvalEnd['reason']): PositionEvalEnd => ({
    type: 'end',
    reason,
    depth: lines.depth,
    bestmove,
  });

  for (;;) {
    if (signal.aborted) return end('stopped');
    let slice: Slice;
    try {
      slice = await pool.run(
        async (engine, { preempted }) => {
          await engine.setOptions(positionOptions(context.resources, job.multiPv));
          if (preempted?.aborted && !signal.aborted) return { result: null, preempted: true };
          deadline ??= now() + job.maxMs;
          const remaining = Math.max(1, deadline - now());
          const stop = preempted === undefined ? signal : AbortSignal.any([signal, preempted]);
          const result = await engine.search(
            { position, limits: { kind: 'fixed', depth: job.maxDepth }, timeoutMs: remaining },
            {
              signal: stop,
              onInfo: (info) => {
                const line = lines.lineOf(info);
                if (line !== null) context.send(line);
              },
            },
          );
          return { result, preempted: preempted?.aborted === true && !signal.aborted };
        },
        { priority: PRIORITY.position, preemptible: true, signal },
      );
    } catch (err) {
      // aborted while it waited for an engine, or before its search began
      if (signal.aborted) return end('stopped');
      throw err;
    }
    const { result } = slice;
    if (result?.bestmove.kind === 'move') bestmove = result.bestmove.move;
    if (slice.preempted || result === null) continue;
    if (result.stopped === 'signal') return end('stopped');
    if (result.stopped === 'deadline') return end('time');
    return end('depth');
  }
}
