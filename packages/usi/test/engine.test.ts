import { HANDICAP_SFENS, PositionHistory, parseSfen } from '@shogi/rules';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkBestmove, type PositionSpec, UsiEngine, UsiError, type UsiInfo } from '../src/index.js';
import { FAIRY_STOCKFISH, fairyStockfish, HAS_FAIRY_STOCKFISH, running, until } from './engines.js';

/** Gote's king on 5a, a sente pawn on 5c, a gold in sente's hand: G*5b mates. */
const MATE_IN_ONE = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';

const expectLegal = (position: PositionSpec, result: Awaited<ReturnType<UsiEngine['search']>>) => {
  const check = checkBestmove(position, result.bestmove);
  expect(check.verdict).toBe('move');
  return check;
};

describe.skipIf(!HAS_FAIRY_STOCKFISH)(`Fairy-Stockfish (${FAIRY_STOCKFISH})`, { timeout: 20_000 }, () => {
  let engine: UsiEngine;
  beforeAll(async () => {
    engine = await UsiEngine.start(fairyStockfish());
  });
  afterAll(async () => {
    await engine?.quit();
  });

  test('the handshake names the engine and lists its options, with types and ranges', () => {
    expect(engine.name).toMatch(/^Fairy-Stockfish/);
    expect(engine.author).toBeTruthy();
    expect(engine.option('Skill Level')).toEqual({ name: 'Skill Level', type: 'spin', default: 20, min: -20, max: 20 });
    expect(engine.option('hash')).toMatchObject({ name: 'Hash', type: 'spin', min: 1 });
    expect(engine.option('Threads')).toMatchObject({ type: 'spin', min: 1 });
    expect(engine.option('MultiPV')).toMatchObject({ type: 'spin', default: 1 });
    expect(engine.option('UCI_Variant')).toMatchObject({ type: 'combo', default: 'shogi' });
    expect(engine.idle).toBe(true);
  });

  test('a depth-limited search from the start position returns a legal move, its score and PV', async () => {
    await engine.newGame();
    const infos: UsiInfo[] = [];
    const position = { moves: ['7g7f', '3c3d'] };
    const result = await engine.search(
      { position, limits: { kind: 'fixed', depth: 6 } },
      { onInfo: (i) => infos.push(i) },
    );
    expectLegal(position, result);
    expect(infos.length).toBeGreaterThan(0);
    expect(result.score?.kind).toBe('cp');
    expect(result.infos).toHaveLength(1);
    expect(result.infos[0]?.depth).toBe(6);
    expect(result.infos[0]?.pv?.[0]).toBeDefined();
    expect(result.stopped).toBeUndefined();
  });

  test('a search from a handicap SFEN (gote moves first) returns a legal move', async () => {
    const position = { sfen: HANDICAP_SFENS.two_piece };
    const result = await engine.search({ position, limits: { kind: 'fixed', depth: 5 } });
    expect(expectLegal(position, result)).toMatchObject({ outcome: { status: 'ongoing' } });
  });

  test('a mate in one: the engine reports score mate 1 (in plies) and plays the mating drop', async () => {
    const start = parseSfen(MATE_IN_ONE);
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const game = new PositionHistory(start.value);
    expect(game.playUsi('G*5b')).toMatchObject({ ok: true, value: { status: 'checkmate', winner: 0 } });

    const position = { sfen: MATE_IN_ONE };
    const result = await engine.search({ position, limits: { kind: 'fixed', depth: 4 } });
    expect(result.score).toEqual({ kind: 'mate', plies: 1, winning: true });
    expect(result.bestmove).toEqual({ kind: 'move', move: 'G*5b' });
    expect(expectLegal(position, result)).toMatchObject({ outcome: { status: 'checkmate' } });
  });

  test('mated: the engine answers bestmove resign after score mate 0', async () => {
    const result = await engine.search({
      position: { sfen: MATE_IN_ONE, moves: ['G*5b'] },
      limits: { kind: 'fixed', depth: 2 },
    });
    expect(result.bestmove).toEqual({ kind: 'resign' });
    expect(result.score).toEqual({ kind: 'mate', plies: 0, winning: false });
  });

  test('go btime 0 wtime 0 byoyomi: the move comes within the byoyomi', async () => {
    // the engine keeps Move Overhead in hand for the way back; the default is thin for a loaded machine
    await engine.setOptions({ 'Move Overhead': 200 });
    try {
      const byoyomi = 1_000;
      const position = { moves: ['7g7f'] };
      const result = await engine.search({ position, limits: { kind: 'clock', btime: 0, wtime: 0, byoyomi } });
      expectLegal(position, result);
      expect(result.stopped).toBeUndefined();
      expect(result.elapsedMs).toBeLessThan(byoyomi);
    } finally {
      await engine.setOptions({ 'Move Overhead': 30 });
    }
  });

  test('options are sent only when their value changes: Hash again would clear the table', async () => {
    const sent: string[] = [];
    const watched = await UsiEngine.start({
      ...fairyStockfish(),
      onLine: (dir, line) => dir === 'out' && sent.push(line),
    });
    try {
      await watched.setOptions({ Hash: 8, 'Skill Level': 3 });
      await watched.setOptions({ Hash: 8, 'Skill Level': 3 });
      await watched.setOptions({ Hash: 8, 'Skill Level': 4 });
      expect(sent.filter((l) => l.startsWith('setoption'))).toEqual([
        // the start's own options, then each change once
        'setoption name Threads value 1',
        'setoption name Hash value 16',
        'setoption name Hash value 8',
        'setoption name Skill Level value 3',
        'setoption name Skill Level value 4',
      ]);
    } finally {
      await watched.quit();
    }
  });

  test('MultiPV: one last line per index, best first', async () => {
    await engine.setOptions({ MultiPV: 3 });
    try {
      const result = await engine.search({ position: {}, limits: { kind: 'fixed', depth: 4 } });
      expect(result.infos.map((i) => i.multipv)).toEqual([1, 2, 3]);
      expect(result.score).toEqual(result.infos[0]?.score);
    } finally {
      await engine.setOptions({ MultiPV: 1 });
    }
  });

  test('an infinite search ends with a bestmove when the signal aborts it', async () => {
    const controller = new AbortController();
    const search = engine.search(
      { position: {}, limits: { kind: 'infinite' } },
      { signal: controller.signal, onInfo: (i) => (i.depth ?? 0) >= 4 && controller.abort() },
    );
    const result = await search;
    expect(result.stopped).toBe('signal');
    expectLegal({}, result);
  });

  test('options are checked against the list: a misspelt name or a value out of range is refused', async () => {
    await expect(engine.setOptions({ Hashh: 16 })).rejects.toMatchObject({ code: 'unknown_option' });
    await expect(engine.setOptions({ 'Skill Level': 21 })).rejects.toMatchObject({ code: 'bad_option_value' });
    await expect(engine.setOptions({ Ponder: 'yes' })).rejects.toMatchObject({ code: 'bad_option_value' });
    await expect(
      engine.search({ position: { moves: ['7g7f\nquit'] }, limits: { kind: 'fixed', depth: 1 } }),
    ).rejects.toMatchObject({ code: 'bad_command' });
    expect(engine.idle).toBe(true);
  });

  test('one operation at a time: a second search while one runs is refused as busy', async () => {
    const first = engine.search({ position: {}, limits: { kind: 'fixed', depth: 5 } });
    await expect(engine.search({ position: {}, limits: { kind: 'fixed', depth: 1 } })).rejects.toMatchObject({
      code: 'busy',
    });
    await first;
  });

  test('an engine killed from outside mid-search rejects the search as crashed, and stays dead', async () => {
    const victim = await UsiEngine.start(fairyStockfish());
    const pid = victim.pid as number;
    const search = victim.search(
      { position: {}, limits: { kind: 'fixed', movetime: 5_000 } },
      { onInfo: () => running(pid) && process.kill(pid, 'SIGKILL') },
    );
    const error = await search.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsiError);
    expect(error).toMatchObject({ code: 'crashed', engineLost: true });
    expect((error as Error).message).toMatch(/SIGKILL/);
    expect(victim.alive).toBe(false);
    await expect(victim.newGame()).rejects.toMatchObject({ code: 'crashed' });
    expect(await until(() => !running(pid))).toBe(true);
  });

  test('quit ends the process', async () => {
    const other = await UsiEngine.start(fairyStockfish());
    const pid = other.pid;
    await other.quit();
    expect(other.alive).toBe(false);
    expect(other.error?.code).toBe('closed');
    expect(await until(() => !running(pid))).toBe(true);
  });
});
