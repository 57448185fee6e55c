import type { AnalysisJobData, PositionEvaluation } from '@shogi/engine-bots';
import type { GameEvent } from '@shogi/game';
import type { AnalysisEngine, AnalysisStatus, WatchAnalysis } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import type { PositionSpec, SearchResult } from '@shogi/usi';
import { describe, expect, it } from 'vitest';
import { type AnalysisPorts, AnalysisStopped, analyseGame, analysisFailed } from '../src/analysis/analyse-game.js';
import { failureReason, givenUp } from '../src/analysis/analysis-worker.js';
import { evaluationOf } from '../src/analysis/evaluate.js';
import { type GameRecord, gameRecordOf } from '../src/analysis/game-record.js';

const ENGINE = 'Fairy-Stockfish 11.1 LB 64';
const JOB: AnalysisJobData = { gameId: 'g1', setting: `${ENGINE}|depth=6` };
const MOVES = ['7g7f', '3c3d', '8h2b+'];

/** In-memory ports that record what the processor did, in order. */
function fakePorts(options: { game?: GameRecord | null; stored?: number[]; engine?: AnalysisEngine | null } = {}) {
  const stored = new Map<number, PositionEvaluation>((options.stored ?? []).map((ply) => [ply, evaluation(ply)]));
  const log: string[] = [];
  const published: WatchAnalysis[] = [];
  const searched: PositionSpec[] = [];
  const game =
    options.game === undefined
      ? { initialSfen: START_SFEN, ruleset: 'default', moves: MOVES, ended: true }
      : options.game;
  const ports: AnalysisPorts = {
    engineName: ENGINE,
    engineOf: async () => (options.engine === undefined ? { name: ENGINE, depth: 6 } : options.engine),
    readGame: async () => (game === null ? null : { ...game, ruleset: 'default' }),
    storedPlies: async () => new Set(stored.keys()),
    async savePly(_job, ply, e) {
      stored.set(ply, e);
      log.push(`save ${ply}`);
    },
    async setStatus(_job, status: AnalysisStatus, error?: string) {
      log.push(error === undefined ? status : `${status}: ${error}`);
    },
    async publish(_gameId, message) {
      published.push(message);
    },
    async evaluate(position) {
      searched.push(position);
      return evaluation(position.moves?.length ?? 0);
    },
  };
  return { ports, log, published, searched, stored };
}

const evaluation = (ply: number): PositionEvaluation => ({ score: { kind: 'cp', value: 10 * ply }, pv: ['2g2f'] });

describe('gameRecordOf', () => {
  const created: GameEvent = {
    type: 'GameCreated',
    data: {
      gameId: 'g1',
      sente: { id: 'a', name: 'a' },
      gote: { id: 'b', name: 'b' },
      ruleset: 'jsa',
      handicap: null,
      initialSfen: START_SFEN,
      timeControl: { kind: 'unlimited' },
      rated: false,
      createdAt: '2024-01-01T00:00:00Z',
    },
  };
  const accepted = (usi: string, ply: number): GameEvent => ({
    type: 'MoveAccepted',
    data: { submittedSeq: ply * 2, ply, usi, sfen: 'x', check: false },
  });

  it('reads the start, the ruleset and the accepted moves in order, and whether the game ended', () => {
    const rejected: GameEvent = {
      type: 'MoveRejected',
      data: { submittedSeq: 5, usi: '1a1b', ply: 2, reason: 'no_piece' },
    };
    const ended: GameEvent = { type: 'GameEnded', data: { winner: 'sente', reason: 'resignation', at: 'x' } };
    const events = [created, accepted('7g7f', 1), rejected, accepted('3c3d', 2)];
    expect(gameRecordOf(events)).toEqual({
      initialSfen: START_SFEN,
      ruleset: 'jsa',
      moves: ['7g7f', '3c3d'],
      ended: false,
    });
    expect(gameRecordOf([...events, ended])?.ended).toBe(true);
  });

  it('is null for a stream that does not start with the game', () => {
    expect(gameRecordOf([])).toBeNull();
    expect(gameRecordOf([accepted('7g7f', 1)])).toBeNull();
  });
});

describe('evaluationOf', () => {
  const result = (over: Partial<SearchResult>): SearchResult => ({
    bestmove: { kind: 'move', move: '7g7f' },
    infos: [],
    elapsedMs: 1,
    ...over,
  });

  it('takes the score and the best line', () => {
    const r = result({ score: { kind: 'cp', value: 40 }, infos: [{ depth: 6, pv: ['7g7f', '3c3d'] }] });
    expect(evaluationOf(r)).toEqual({ score: { kind: 'cp', value: 40 }, pv: ['7g7f', '3c3d'] });
  });

  it('starts an unreported line with the chosen move', () => {
    expect(evaluationOf(result({ score: { kind: 'cp', value: 0 } })).pv).toEqual(['7g7f']);
  });

  it('a mated position (Fairy-Stockfish: `info depth 0 score mate 0`, `bestmove resign`) has mate 0 and no line', () => {
    const mate0 = { kind: 'mate', plies: 0, winning: false } as const;
    expect(
      evaluationOf(result({ bestmove: { kind: 'resign' }, score: mate0, infos: [{ depth: 0, score: mate0 }] })),
    ).toEqual({ score: mate0, pv: [] });
  });

  it('refuses a search without a score', () => {
    expect(() => evaluationOf(result({}))).toThrow('no score');
  });
});

describe('analyseGame', () => {
  it('searches every position from the start to the final one, storing and telling each', async () => {
    const { ports, log, published, searched } = fakePorts();
    await expect(analyseGame(JOB, ports)).resolves.toEqual({ kind: 'done', positions: 4 });
    expect(searched).toEqual([0, 1, 2, 3].map((n) => ({ sfen: START_SFEN, moves: MOVES.slice(0, n) })));
    expect(log).toEqual(['running', 'save 0', 'save 1', 'save 2', 'save 3', 'done']);
    expect(published.map((m) => [m.status, m.done, m.total])).toEqual([
      ['running', 0, 4],
      ['running', 1, 4],
      ['running', 2, 4],
      ['running', 3, 4],
      ['running', 4, 4],
      ['done', 4, 4],
    ]);
  });

  it('a run after a failed one resumes after the plies stored', async () => {
    const { ports, searched, published } = fakePorts({ stored: [0, 1] });
    await analyseGame(JOB, ports);
    expect(searched.map((p) => p.moves?.length)).toEqual([2, 3]);
    expect(published[0]).toEqual({ type: 'analysis', status: 'running', done: 2, total: 4 });
  });

  it('an analysis deleted meanwhile is left alone', async () => {
    const { ports, log } = fakePorts({ engine: null });
    await expect(analyseGame(JOB, ports)).resolves.toEqual({ kind: 'gone' });
    expect(log).toEqual([]);
  });

  it.each<[string, Parameters<typeof fakePorts>[0], string]>([
    ['another engine', { engine: { name: 'Other', depth: 6 } }, 'this engine role runs'],
    ['a movetime setting', { engine: { name: ENGINE, movetime: 100 } }, 'only depth-limited'],
    ['an unknown game', { game: null }, 'no such game'],
    [
      'a game going on',
      { game: { initialSfen: START_SFEN, ruleset: 'default', moves: [], ended: false } },
      'not ended',
    ],
    [
      'moves that do not replay',
      { game: { initialSfen: START_SFEN, ruleset: 'default', moves: ['7g7f', '7f7e', '7e7d'], ended: true } },
      'do not replay',
    ],
  ])('%s: given up at once, nothing searched', async (_name, options, message) => {
    const { ports, searched } = fakePorts(options);
    const error = await analyseGame(JOB, ports).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'UnrecoverableError' });
    expect((error as Error).message).toContain(message);
    expect(searched).toEqual([]);
  });

  it('stops before storing when the engine role stops, whatever the search gave', async () => {
    const { ports, log } = fakePorts();
    const controller = new AbortController();
    const evaluate = ports.evaluate;
    const stopping: AnalysisPorts = {
      ...ports,
      async evaluate(position, depth) {
        if ((position.moves?.length ?? 0) === 2) controller.abort();
        return evaluate(position, depth);
      },
    };
    await expect(analyseGame(JOB, stopping, controller.signal)).rejects.toThrow(AnalysisStopped);
    expect(log).toEqual(['running', 'save 0', 'save 1']);
  });
});

describe('a job given up', () => {
  it('is marked failed with its reason, and the watchers told how far it got', async () => {
    const { ports, log, published } = fakePorts({ stored: [0, 1] });
    await analysisFailed(JOB, 'the engine crashed', ports);
    expect(log).toEqual(['failed: the engine crashed']);
    expect(published).toEqual([{ type: 'analysis', status: 'failed', done: 2, total: 4 }]);
  });

  it('is known by BullMQ setting finishedOn, which a job to be retried lacks', () => {
    expect(givenUp({ finishedOn: 1 })).toBe(true);
    expect(givenUp({})).toBe(false);
  });

  it('tells the first line of its error, cut short', () => {
    expect(failureReason(new Error(`boom\n    at somewhere`))).toBe('boom');
    expect(failureReason(new Error('x'.repeat(1000)))).toHaveLength(300);
  });
});
