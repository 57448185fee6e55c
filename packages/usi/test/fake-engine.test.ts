import { describe, expect, test } from 'vitest';
import { checkBestmove, type SearchRequest, UsiEngine, UsiError } from '../src/index.js';
import { fake, processesRunning, running, until } from './engines.js';

const START: SearchRequest = { position: {}, limits: { kind: 'fixed', movetime: 100 } };

const failureOf = async (promise: Promise<unknown>): Promise<UsiError> => {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsiError);
  return error as UsiError;
};

describe('engines that speak USI badly', { timeout: 10_000 }, () => {
  test('silent: no bestmove even after stop — stopped at its deadline, then killed as hung', async () => {
    const engine = await UsiEngine.start(fake('silent'));
    const pid = engine.pid;
    const lines: string[] = [];
    const started = Date.now();
    const error = await failureOf(engine.search(START, { onInfo: () => lines.push('info') }));
    expect(error.code).toBe('timeout');
    expect(error.engineLost).toBe(true);
    expect(error.message).toMatch(/after its deadline/);
    // movetime 100 + margin 100, then the stop grace of 300
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(lines).toEqual(['info']);
    expect(engine.alive).toBe(false);
    expect(await until(() => !running(pid))).toBe(true);
  });

  test('garbage around the answers: the handshake and the search still work', async () => {
    const seen: string[] = [];
    const engine = await UsiEngine.start(fake('garbage', { onLine: (dir, line) => dir === 'in' && seen.push(line) }));
    try {
      expect(engine.name).toBe('FakeEngine');
      expect(engine.options.map((o) => o.name)).toEqual(['Hash', 'Threads', 'Skill Level', 'Ponder', 'Style']);
      const result = await engine.search(START);
      expect(result.bestmove).toEqual({ kind: 'move', move: '7g7f' });
      expect(result.ponder).toBe('3c3d');
      expect(seen).toContain('bestmovez 7g7f');
      expect(engine.idle).toBe(true);
    } finally {
      await engine.quit();
    }
  });

  test('illegal: a well-formed but illegal move is returned as the engine said it, and the check reports it', async () => {
    const engine = await UsiEngine.start(fake('illegal'));
    try {
      const result = await engine.search(START);
      expect(result.bestmove).toEqual({ kind: 'move', move: '5e5d' });
      expect(checkBestmove(START.position, result.bestmove)).toEqual({
        verdict: 'illegal_move',
        move: '5e5d',
        reason: 'no_piece',
      });
      expect(engine.idle).toBe(true);
    } finally {
      await engine.quit();
    }
  });

  test('malformed: a bestmove that is not a move rejects the search; the engine stays usable', async () => {
    const engine = await UsiEngine.start(fake('malformed'));
    try {
      const error = await failureOf(engine.search(START));
      expect(error.code).toBe('bad_bestmove');
      expect(error.engineLost).toBe(false);
      expect(error.message).toContain('0z0z');
      expect(engine.idle).toBe(true);
      await engine.newGame();
    } finally {
      await engine.quit();
    }
  });

  test('flood: a 10 MB line is cut off at the bound and the engine killed, without holding the line', async () => {
    const engine = await UsiEngine.start(fake('flood', { maxLineLength: 4096 }));
    const pid = engine.pid;
    const before = process.memoryUsage().heapUsed;
    const error = await failureOf(engine.search(START));
    expect(error.code).toBe('line_too_long');
    expect(error.engineLost).toBe(true);
    expect(engine.alive).toBe(false);
    expect(await until(() => !running(pid))).toBe(true);
    // far below the 10 MB (20 MB as a JavaScript string) the engine wrote
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024);
  });

  test('crash: an exit mid-search rejects as crashed, with the exit code and the last stderr line', async () => {
    const engine = await UsiEngine.start(fake('crash'));
    const error = await failureOf(engine.search(START));
    expect(error.code).toBe('crashed');
    expect(error.message).toMatch(/code 3/);
    expect(error.message).toMatch(/simulated fault/);
  });

  test('mute: no usiok within the handshake time — start rejects and leaves no process behind', async () => {
    const error = await failureOf(UsiEngine.start(fake('mute', { timeouts: { handshakeMs: 300 } })));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/usiok/);
    expect(await until(() => processesRunning('fake-engine.mjs mute').length === 0)).toBe(true);
  });

  test('stubborn: an engine that ignores quit is killed after the grace', async () => {
    const engine = await UsiEngine.start(fake('stubborn'));
    const pid = engine.pid;
    const started = Date.now();
    await engine.quit();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await until(() => !running(pid))).toBe(true);
  });

  test('a missing binary, and options the engine does not have, fail start with their own codes', async () => {
    expect((await failureOf(UsiEngine.start({ path: '/nonexistent/engine' }))).code).toBe('spawn_failed');
    expect((await failureOf(UsiEngine.start(fake('good', { options: { USI_Hash: 16 } })))).code).toBe('unknown_option');
    expect((await failureOf(UsiEngine.start(fake('good', { options: { Threads: 8 } })))).code).toBe('bad_option_value');
    expect((await failureOf(UsiEngine.start(fake('good', { options: { Style: 'Wild' } })))).code).toBe(
      'bad_option_value',
    );
  });
});
