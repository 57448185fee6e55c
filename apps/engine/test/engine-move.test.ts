import type { EngineMoveJobData } from '@shogi/engine-bots';
import { START_SFEN } from '@shogi/rules';
import type { EnginePool, OptionValue, SearchRequest, SearchResult, UsiScore } from '@shogi/usi';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { answerOf, type EngineMoveContext, engineMove } from '../src/engine-move.js';
import { INSTALL_HINT, startEnginePool } from '../src/engine-pool.js';
import { defaultEngineWorkers, engineSettingsFromEnv } from '../src/settings.js';

/** A pool of one scripted engine that records what it was told. */
function fakePool(answer: (request: SearchRequest) => SearchResult | Error) {
  const told: { options: Record<string, OptionValue>[]; searches: SearchRequest[] } = { options: [], searches: [] };
  const engine = {
    async setOptions(values: Record<string, OptionValue>) {
      told.options.push(values);
    },
    async search(request: SearchRequest) {
      told.searches.push(request);
      const result = answer(request);
      if (result instanceof Error) throw result;
      return result;
    },
  };
  const pool = { run: (task: (e: unknown, c: unknown) => unknown) => task(engine, { attempt: 0 }) };
  return { pool: pool as unknown as EnginePool, told };
}

const result = (move: string, score?: UsiScore): SearchResult => ({
  bestmove: move === 'resign' || move === 'win' ? { kind: move } : { kind: 'move', move },
  infos: [],
  elapsedMs: 1,
  ...(score === undefined ? {} : { score }),
});

const request = (over: Partial<EngineMoveJobData> = {}): EngineMoveJobData => ({
  level: 4,
  gameId: 'g',
  initialSfen: START_SFEN,
  moves: [],
  ruleset: 'default',
  side: 'sente',
  clock: null,
  timeControl: { kind: 'unlimited' },
  scores: [],
  ...over,
});

function context(pool: EnginePool, warnings: string[] = []): EngineMoveContext {
  return { pool, resources: { hash: 16, threads: 1 }, onWarning: (m) => warnings.push(m) };
}

describe('engineMove', () => {
  it("sets the level's options before each search, and plays the engine's legal move", async () => {
    const { pool, told } = fakePool(() => result('7g7f', { kind: 'cp', value: 30 }));
    const answer = await engineMove(request({ level: 2 }), context(pool));
    expect(answer).toEqual({ kind: 'move', usi: '7g7f', score: { kind: 'cp', value: 30 } });
    expect(told.options).toEqual([{ 'Skill Level': -5, MultiPV: 1, Hash: 16, Threads: 1 }]);
    expect(told.searches[0]?.limits).toEqual({ kind: 'fixed', depth: 5, movetime: 100 });
    expect(told.searches[0]?.position).toEqual({ sfen: START_SFEN, moves: [] });
  });

  it("never answers an illegal engine move: 'none', with a warning, so the requester plays its own", async () => {
    const warnings: string[] = [];
    const { pool } = fakePool(() => result('5e5d'));
    const answer = await engineMove(request(), context(pool, warnings));
    expect(answer).toMatchObject({ kind: 'none', reason: expect.stringMatching(/illegal move 5e5d/) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/illegal move 5e5d/);
  });

  it("a failed search is also 'none', with a warning", async () => {
    const warnings: string[] = [];
    const { pool } = fakePool(() => new Error('engine died'));
    expect(await engineMove(request(), context(pool, warnings))).toMatchObject({ kind: 'none' });
    expect(warnings[0]).toMatch(/engine died/);
  });

  it('resigns at the higher levels after hopeless searches, never at the lower', async () => {
    const lost: UsiScore = { kind: 'cp', value: -3000 };
    const { pool } = fakePool(() => result('7g7f', lost));
    const scores = [lost, lost, lost];
    expect(await engineMove(request({ level: 8, scores }), context(pool))).toEqual({ kind: 'resign' });
    expect(await engineMove(request({ level: 4, scores }), context(pool))).toMatchObject({ kind: 'move' });
  });

  it("answers 'none' for a game already over, and for a position the rules cannot set up", async () => {
    const { pool, told } = fakePool(() => result('7g7f'));
    expect(await engineMove(request({ moves: ['7g7f', '9z9z'] }), context(pool))).toMatchObject({ kind: 'none' });
    expect(await engineMove(request({ initialSfen: 'not a position' }), context(pool))).toMatchObject({ kind: 'none' });
    expect(told.searches).toEqual([]);
  });

  it('declares impasse when the rules grant it, without a search', async () => {
    const { pool, told } = fakePool(() => result('resign'));
    const answer = await engineMove(request({ initialSfen: 'RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 b - 1' }), context(pool));
    expect(answer).toEqual({ kind: 'impasse' });
    expect(told.searches).toEqual([]);
  });
});

describe('answerOf', () => {
  it("maps the rules' verdicts: a move, a granted impasse, a resignation; refused answers are null", () => {
    expect(answerOf({ verdict: 'resign' }, undefined)).toEqual({ kind: 'resign' });
    expect(answerOf({ verdict: 'move', move: '7g7f', outcome: { status: 'ongoing' } } as never, undefined)).toEqual({
      kind: 'move',
      usi: '7g7f',
    });
    expect(answerOf({ verdict: 'illegal_move', move: 'x', reason: 'malformed_usi' }, undefined)).toBeNull();
  });
});

describe('engine settings', () => {
  it('default to Fairy-Stockfish, one engine per core but one, 16 MB', () => {
    expect(engineSettingsFromEnv({}, 4)).toEqual({
      path: '/usr/games/fairy-stockfish',
      workers: 3,
      hashMb: 16,
      analysisDepth: 12,
      screeningDepth: 10,
      screeningSweepMs: 60_000,
    });
    expect(defaultEngineWorkers(1)).toBe(1);
    const env = { ENGINE_PATH: '/opt/e', ENGINE_WORKERS: '2', ENGINE_HASH_MB: '64', ANALYSIS_DEPTH: '16' };
    expect(engineSettingsFromEnv(env, 8)).toEqual({
      path: '/opt/e',
      workers: 2,
      hashMb: 64,
      analysisDepth: 16,
      screeningDepth: 10,
      screeningSweepMs: 60_000,
    });
    expect(engineSettingsFromEnv({ ENGINE_WORKERS: '0', ENGINE_HASH_MB: 'lots' }, 2)).toMatchObject({
      workers: 1,
      hashMb: 16,
    });
  });

  it('a missing engine gives no pool and one line saying how to install one', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const settings = { path: '/nonexistent/engine', workers: 1, hashMb: 16, analysisDepth: 8 };
    const pool = await startEnginePool(settings, logger);
    expect(pool).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(INSTALL_HINT);
  });
});
