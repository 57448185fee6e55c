/**
 * The analysis job's processor: every position of an ended game searched to the analysis
 * depth, from the start to the final position, each verdict stored as it comes and the
 * progress published after each. Idempotent: the plies stored by an earlier run are skipped,
 * so a retried job resumes where the last one stopped, and a finished one does nothing new.
 */
import { type AnalysisJobData, analysisSettingKey, type PositionEvaluation } from '@shogi/engine-bots';
import type { AnalysisEngine, AnalysisStatus, WatchAnalysis } from '@shogi/protocol';
import { UnrecoverableError } from 'bullmq';
import { replayPosition } from '../replay.js';
import type { Evaluate } from './evaluate.js';
import type { GameRecord } from './game-record.js';

/** What the processor reads and writes, all keyed by the job's game and setting. */
export interface AnalysisPorts {
  /** as the pooled engine gave it in `id name` */
  readonly engineName: string;
  /** the analysis' engine and depth as requested; null when its row is gone (deleted meanwhile) */
  engineOf(job: AnalysisJobData): Promise<AnalysisEngine | null>;
  readGame(gameId: string): Promise<GameRecord | null>;
  storedPlies(job: AnalysisJobData): Promise<ReadonlySet<number>>;
  savePly(job: AnalysisJobData, ply: number, evaluation: PositionEvaluation): Promise<void>;
  /** `error`: why it failed, for a failed one */
  setStatus(job: AnalysisJobData, status: AnalysisStatus, error?: string): Promise<void>;
  /** best effort: a watcher missing a progress message still finds the analysis by GET */
  publish(gameId: string, message: WatchAnalysis): Promise<void>;
  readonly evaluate: Evaluate;
}

export type AnalysisOutcome = { readonly kind: 'done'; readonly positions: number } | { readonly kind: 'gone' };

/** Thrown when the engine role stops in the middle of an analysis: a run to retry. */
export class AnalysisStopped extends Error {
  constructor() {
    super('the engine role stopped during the analysis');
    this.name = 'AnalysisStopped';
  }
}

const stopIfAborted = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw new AnalysisStopped();
};

/**
 * Runs the analysis. When `signal` fires (the engine role is stopping) it throws before
 * storing anything more: a search cut short is never stored as the position's verdict.
 */
export async function analyseGame(
  job: AnalysisJobData,
  ports: AnalysisPorts,
  signal?: AbortSignal,
): Promise<AnalysisOutcome> {
  const engine = await ports.engineOf(job);
  if (engine === null) return { kind: 'gone' };
  if (!('depth' in engine)) throw new UnrecoverableError('only depth-limited analyses are run');
  // the setting names the engine whose verdicts these are: another one's would be filed under it
  const ours = analysisSettingKey({ engineName: ports.engineName, depth: engine.depth });
  if (engine.name !== ports.engineName || ours !== job.setting)
    throw new UnrecoverableError(`this engine role runs ${ports.engineName}, not the engine the analysis asks for`);
  const game = await ports.readGame(job.gameId);
  if (game === null) throw new UnrecoverableError('no such game');
  if (!game.ended) throw new UnrecoverableError('the game has not ended');
  // the engine is told only the start and the moves: the rules check them first
  if (replayPosition(game.initialSfen, game.ruleset, game.moves) === null)
    throw new UnrecoverableError('the recorded moves do not replay from the start position');

  const total = game.moves.length + 1;
  const stored = await ports.storedPlies(job);
  let done = [...stored].filter((ply) => ply < total).length;
  const progress = (status: AnalysisStatus) => ports.publish(job.gameId, { type: 'analysis', status, done, total });
  await ports.setStatus(job, 'running');
  await progress('running');
  for (let ply = 0; ply < total; ply++) {
    if (stored.has(ply)) continue;
    stopIfAborted(signal);
    const position = { sfen: game.initialSfen, moves: game.moves.slice(0, ply) };
    const evaluation = await ports.evaluate(position, engine.depth, signal);
    stopIfAborted(signal);
    await ports.savePly(job, ply, evaluation);
    done++;
    await progress('running');
  }
  await ports.setStatus(job, 'done');
  await progress('done');
  return { kind: 'done', positions: total };
}

/**
 * Marks the analysis failed, once its job is given up, and tells the watchers how far it got.
 * A game that cannot be read counts no positions beyond those stored.
 */
export async function analysisFailed(job: AnalysisJobData, reason: string, ports: AnalysisPorts): Promise<void> {
  await ports.setStatus(job, 'failed', reason);
  const done = (await ports.storedPlies(job)).size;
  const game = await ports.readGame(job.gameId).catch(() => null);
  const total = game === null ? done : game.moves.length + 1;
  await ports.publish(job.gameId, { type: 'analysis', status: 'failed', done: Math.min(done, total), total });
}
