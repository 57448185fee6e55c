/**
 * Any position evaluated by the engine role on request (`POST /api/analysis/position`), over
 * real HTTP with the real Fairy-Stockfish on a pool of one engine: hostile positions refused
 * by the rules, depth lines streamed with scores from sente's side, one evaluation per
 * player (across gateways), a client that leaves frees the engine, a bot move waiting while
 * every engine evaluates gets one first (the evaluation pauses and resumes), an engine role
 * that stops ends its evaluations, and the limits per account and per address. The engine tests are skipped, saying why, where Fairy-Stockfish is missing.
 */
import { existsSync } from 'node:fs';
import type { EngineMoveJobData } from '@shogi/engine-bots';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { buildApp, loadConfig } from '@shogi/gateway';
import { START_SFEN } from '@shogi/rules';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { bearer, call, REDIS, type Stack, silentLogger, startStack, startStackEngines } from './harness.js';
import { type NdjsonLine, NdjsonReader } from './ndjson-client.js';

const HAS_ENGINE = existsSync(DEFAULT_ENGINE_PATH);
if (!HAS_ENGINE)
  console.warn(
    `analysis-position: the tests with the engine are skipped: ${DEFAULT_ENGINE_PATH} is missing (apt-get install fairy-stockfish)`,
  );

/** Sente mates in 3 (two golds in hand, a pawn on 5d): `score mate 3 pv 5d5c+ 5a6a G*6b` (as analysis.test.ts). */
const MATE_IN_3 = '4k4/9/9/4P4/9/9/9/9/4K4 b 2G 1';
/** Gote's king mated by a gold on 5b backed by a pawn on 5c, gote to move. */
const MATED = '4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1';
/** Each evaluation's time: long enough to be stopped, short enough to end by itself. */
const MAX_MS = 8_000;
const ROUTE = '/api/analysis/position';

let stack: Stack;
let engines: RunningEngineWorker | null = null;
let client: EngineClient | null = null;

const guest = async (name: string): Promise<string> =>
  (await call(stack.app, 'POST', '/api/players', { name })).body.token as string;
const post = (body: unknown, token: string) => call(stack.app, 'POST', ROUTE, body, bearer(token));

async function open(body: unknown, token: string): Promise<NdjsonReader> {
  const opened = await NdjsonReader.open(`${stack.baseUrl}${ROUTE}`, token, body);
  if (!('reader' in opened)) throw new Error(`refused: ${opened.status} ${JSON.stringify(opened.body)}`);
  return opened.reader;
}

async function until(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  const defaults = loadConfig({});
  stack = await startStack({
    listen: true,
    config: {
      positionAnalysis: { maxDepth: 40, maxMs: MAX_MS },
      rateLimits: {
        ...defaults.rateLimits,
        guests: { max: 0, windowMs: 60_000 },
        positionAnalysis: { max: 0, windowMs: 60_000 },
        positionAnalysisPerIp: { max: 0, windowMs: 60_000 },
      },
    },
  });
});

afterAll(async () => {
  await client?.close();
  await engines?.close();
  await stack?.close();
});

describe('refusals before any engine', () => {
  let token: string;
  beforeAll(async () => {
    token = await guest('hostile');
  });

  test.each([
    ['a board that is no SFEN', { sfen: 'not a position' }, 400, 'INVALID_SFEN', /sfen/],
    ['an SFEN without kings in place of rows', { sfen: '9/9/9 b - 1' }, 400, 'INVALID_SFEN', /rows/],
    ['a move that is no USI', { sfen: START_SFEN, moves: ['7g7f', 'zz'] }, 400, 'MALFORMED_USI', /moves\[1\]/],
    ['an illegal move', { sfen: START_SFEN, moves: ['7g7f', '7g7f'] }, 422, 'ILLEGAL_MOVE', /moves\[1\] \(7g7f\)/],
    ['a checkmated side to move', { sfen: MATED }, 422, 'POSITION_OVER', /checkmated/],
    [
      'a move past the mate',
      { sfen: MATE_IN_3, moves: ['5d5c+', '5a6a', 'G*6b', '6a7a'] },
      422,
      'POSITION_OVER',
      /moves\[2\] \(G\*6b\): the side to move is checkmated/,
    ],
    [
      'moves that end in mate',
      { sfen: MATE_IN_3, moves: ['5d5c+', '5a6a', 'G*6b'] },
      422,
      'POSITION_OVER',
      /moves\[2\]/,
    ],
    ['six lines', { sfen: START_SFEN, multiPv: 6 }, 400, 'BAD_REQUEST', /multiPv/],
    ['an unknown field', { sfen: START_SFEN, ruleset: 'jsa' }, 400, 'BAD_REQUEST', /ruleset/],
    ['moves that are no list', { sfen: START_SFEN, moves: '7g7f' }, 400, 'BAD_REQUEST', /moves/],
  ])('%s', async (_name, body, status, code, detail) => {
    const answer = await post(body, token);
    expect(answer).toMatchObject({ status, body: { code } });
    expect(answer.body.detail).toMatch(detail);
  });

  test('no token 401, a read-only token 403; no engine role 503 ENGINE_UNAVAILABLE', async () => {
    expect((await call(stack.app, 'POST', ROUTE, { sfen: START_SFEN })).status).toBe(401);
    await call(stack.app, 'POST', '/api/accounts', { username: 'reader', password: 'correct horse' });
    const session = (await call(stack.app, 'POST', '/api/session', { username: 'reader', password: 'correct horse' }))
      .body.token;
    const readOnly = (await call(stack.app, 'POST', '/api/tokens', { name: 'r', scopes: ['read'] }, bearer(session)))
      .body.token;
    expect(await post({ sfen: START_SFEN }, readOnly)).toMatchObject({
      status: 403,
      body: { code: 'INSUFFICIENT_SCOPE' },
    });
    const refused = await post({ sfen: START_SFEN }, token);
    expect(refused).toMatchObject({ status: 503, body: { code: 'ENGINE_UNAVAILABLE' } });
    expect(refused.body.message).toMatch(/try again later/);
  });
});

describe.skipIf(!HAS_ENGINE)('with the engine role (one engine)', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    engines = await startStackEngines(stack, {
      path: DEFAULT_ENGINE_PATH,
      workers: 1,
      hashMb: 16,
      analysisDepth: 6,
    });
    if (engines === null) throw new Error('the engine role did not start');
    client = await EngineClient.start({ ...REDIS, prefix: stack.config.queuePrefix, logger: silentLogger() });
  });

  const pool = () => (engines as RunningEngineWorker).pool;

  test('a start line, a line per depth with the score from sente’s side, and an end at the depth asked', async () => {
    const token = await guest('depths');
    // gote to move after 5d5c+: the engine sees itself mated (mate -2); sente's side reads +2
    const reader = await open({ sfen: MATE_IN_3, moves: ['5d5c+'], depth: 6 }, token);
    const lines = [(await reader.next()) as NdjsonLine, ...(await reader.rest(30_000))];
    const [start, ...rest] = lines;
    expect(start).toMatchObject({ type: 'start', sideToMove: 'gote', multiPv: 1, maxDepth: 6, maxMs: MAX_MS });
    expect(start?.engine).toMatchObject({ name: expect.stringMatching(/Fairy-Stockfish/) });
    const depths = rest.filter((l) => l.type === 'depth');
    const end = rest.at(-1);
    expect(depths.map((l) => l.depth)).toEqual(depths.map((_, i) => i + 1));
    const last = depths.at(-1) as NdjsonLine;
    // the king steps aside either way and a gold mates: 5a6a G*6b or 5a4a G*4b
    expect(last).toMatchObject({ depth: 6, multipv: 1, score: { mate: 2 } });
    expect(last.pv).toHaveLength(2);
    expect(typeof last.nodes).toBe('number');
    expect(end).toEqual({ type: 'end', reason: 'depth', depth: 6, bestmove: (last.pv as string[])[0] });
  });

  test('two lines of play when asked (MultiPV), each with its own depths', async () => {
    const token = await guest('lines');
    const reader = await open({ sfen: START_SFEN, multiPv: 2, depth: 4 }, token);
    const lines = await reader.rest(30_000);
    const byLine = (n: number) => lines.filter((l) => l.type === 'depth' && l.multipv === n).map((l) => l.depth);
    expect(byLine(1)).toEqual([1, 2, 3, 4]);
    expect(byLine(2)).toEqual([1, 2, 3, 4]);
    expect(lines.at(-1)).toMatchObject({ type: 'end', reason: 'depth', depth: 4 });
  });

  test("a player's new request ends the one before (superseded); the new one runs", async () => {
    const token = await guest('twice');
    const first = await open({ sfen: START_SFEN }, token);
    expect(await first.nextOf('depth')).not.toBeNull();
    const second = await open({ sfen: START_SFEN, moves: ['7g7f'], depth: 5 }, token);
    const firstRest = await first.rest();
    expect(firstRest.at(-1)).toMatchObject({ type: 'end', reason: 'superseded' });
    expect((firstRest.at(-1)?.depth as number) > 0).toBe(true);
    const secondLines = await second.rest(30_000);
    expect(secondLines.at(-1)).toMatchObject({ type: 'end', reason: 'depth', depth: 5 });
  });

  test("on two gateways too: the player's request on one ends the evaluation streamed by the other", async () => {
    // a second gateway process in all but name: its own pools, subscribers and sockets
    const other = await buildApp(stack.config, silentLogger());
    try {
      const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
      const token = await guest('roamer');
      const first = await open({ sfen: START_SFEN }, token);
      expect(await first.nextOf('depth')).not.toBeNull();
      const opened = await NdjsonReader.open(`${otherUrl}${ROUTE}`, token, { sfen: START_SFEN, depth: 4 });
      if (!('reader' in opened)) throw new Error(`refused: ${opened.status}`);
      expect((await first.rest()).at(-1)).toMatchObject({ type: 'end', reason: 'superseded' });
      expect((await opened.reader.rest(30_000)).at(-1)).toMatchObject({ type: 'end', reason: 'depth', depth: 4 });
    } finally {
      await other.close();
    }
  });

  test('a client that leaves stops its search: the engine is free for the next player at once', async () => {
    const leaver = await open({ sfen: START_SFEN }, await guest('leaver'));
    expect(await leaver.nextOf('depth')).not.toBeNull();
    expect(pool().stats.busy).toBe(1);
    leaver.close();
    await until('the engine freed', () => pool().stats.busy === 0, 5_000);
    const next = await open({ sfen: START_SFEN, depth: 3 }, await guest('next'));
    expect((await next.rest(30_000)).at(-1)).toMatchObject({ type: 'end', reason: 'depth', depth: 3 });
  });

  test('a bot move waiting while the one engine evaluates a position gets it first; the evaluation resumes', async () => {
    const order: string[] = [];
    const reader = await open({ sfen: START_SFEN }, await guest('analyst'));
    expect(await reader.nextOf('depth')).not.toBeNull();
    order.push('evaluating');
    const preemptions = pool().stats.preemptions;
    const move: EngineMoveJobData = {
      level: 8,
      gameId: 'preemption',
      initialSfen: START_SFEN,
      moves: [],
      ruleset: 'default',
      side: 'sente',
      clock: null,
      timeControl: { kind: 'unlimited' },
      scores: [],
    };
    const reading = (async () => {
      for (let line = await reader.next(30_000); line !== null; line = await reader.next(30_000))
        order.push(line.type === 'end' ? `end ${line.reason as string}` : (line.type as string));
    })();
    const answer = await (client as EngineClient).move(move, 30_000);
    order.push('bot moved');
    expect(answer).toMatchObject({ kind: 'move' });
    await reading;
    expect(pool().stats.preemptions).toBe(preemptions + 1);
    // the move was answered before the evaluation ended by its time, and it went on after
    const moved = order.indexOf('bot moved');
    expect(moved).toBeGreaterThan(0);
    expect(order.at(-1)).toBe('end time');
    expect(order.slice(moved + 1)).toContain('depth');
  });

  test('an engine role that stops ends the evaluation it runs (stopped), and new requests get 503', async () => {
    const token = await guest('late');
    const reader = await open({ sfen: START_SFEN }, token);
    expect(await reader.nextOf('depth')).not.toBeNull();
    const closing = (engines as RunningEngineWorker).close();
    engines = null;
    expect((await reader.rest(15_000)).at(-1)).toMatchObject({ type: 'end', reason: 'stopped' });
    await closing;
    expect(await post({ sfen: START_SFEN }, token)).toMatchObject({
      status: 503,
      body: { code: 'ENGINE_UNAVAILABLE' },
    });
  });
});

describe('limits per account and per address', () => {
  let limited: Stack;
  afterAll(async () => {
    await limited?.close();
  });

  test('past either limit: 429 RATE_LIMITED with Retry-After', async () => {
    const defaults = loadConfig({});
    limited = await startStack({
      config: {
        rateLimits: {
          ...defaults.rateLimits,
          guests: { max: 0, windowMs: 60_000 },
          positionAnalysis: { max: 2, windowMs: 60_000 },
          positionAnalysisPerIp: { max: 3, windowMs: 60_000 },
        },
      },
    });
    const ask = (token: string) => call(limited.app, 'POST', ROUTE, { sfen: 'no' }, bearer(token));
    const ann = (await call(limited.app, 'POST', '/api/players', { name: 'ann' })).body.token as string;
    const bob = (await call(limited.app, 'POST', '/api/players', { name: 'bob' })).body.token as string;
    // every answer counts, refusals too
    expect((await ask(ann)).status).toBe(400);
    expect((await ask(ann)).status).toBe(400);
    const perAccount = await limited.app.inject({
      method: 'POST',
      url: ROUTE,
      headers: { ...bearer(ann), 'content-type': 'application/json' },
      payload: JSON.stringify({ sfen: START_SFEN }),
    });
    expect(perAccount.statusCode).toBe(429);
    expect(perAccount.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(perAccount.headers['retry-after'])).toBeGreaterThan(0);
    // bob's first counts as the address's third, his second is past the address's limit
    expect((await ask(bob)).status).toBe(400);
    const perAddress = await ask(bob);
    expect(perAddress).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
  });
});
