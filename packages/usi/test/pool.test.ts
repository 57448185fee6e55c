import { describe, expect, test } from 'vitest';
import {
  checkBestmove,
  type EngineConfig,
  EnginePool,
  PRIORITY,
  PriorityQueue,
  type SearchRequest,
  UsiEngine,
  UsiError,
} from '../src/index.js';
import { fairyStockfish, fake, HAS_FAIRY_STOCKFISH, running, until } from './engines.js';

const QUICK: SearchRequest = { position: {}, limits: { kind: 'fixed', movetime: 100 } };

/** A promise and the function that settles it: holds an engine until the test lets go. */
function gate(): { open: () => void; closed: Promise<void> } {
  let open = (): void => {};
  const closed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, closed };
}

/** A pool's engine starter that notes each engine's pid. */
function recordingPids(): { startEngine: (config: EngineConfig) => Promise<UsiEngine>; pids: number[] } {
  const pids: number[] = [];
  const startEngine = async (config: EngineConfig) => {
    const engine = await UsiEngine.start(config);
    pids.push(engine.pid as number);
    return engine;
  };
  return { startEngine, pids };
}

describe.skipIf(!HAS_FAIRY_STOCKFISH)('EnginePool on Fairy-Stockfish', { timeout: 20_000 }, () => {
  test('tasks share the engines; the counters add up', async () => {
    const pool = await EnginePool.start({ size: 2, engine: fairyStockfish() });
    try {
      const positions = [{}, { moves: ['7g7f'] }, { moves: ['2g2f', '8c8d'] }];
      const results = await Promise.all(
        positions.map((position) =>
          pool.run((engine) => engine.search({ position, limits: { kind: 'fixed', depth: 4 } })),
        ),
      );
      results.forEach((result, i) => {
        expect(checkBestmove(positions[i] ?? {}, result.bestmove).verdict).toBe('move');
      });
      expect(pool.stats).toEqual({
        size: 2,
        busy: 0,
        queued: 0,
        restarts: 0,
        retries: 0,
        completed: 3,
        failed: 0,
        preemptions: 0,
      });
    } finally {
      await pool.close();
    }
  });

  test('an engine killed mid-search is replaced and the task runs again on the fresh one', async () => {
    const restarts: unknown[] = [];
    const pool = await EnginePool.start({
      size: 1,
      engine: fairyStockfish(),
      onRestart: (_slot, reason) => restarts.push(reason),
    });
    try {
      const pids: number[] = [];
      const result = await pool.run((engine, { attempt }) => {
        pids.push(engine.pid as number);
        if (attempt > 0) return engine.search({ position: {}, limits: { kind: 'fixed', depth: 5 } });
        const pid = engine.pid as number;
        return engine.search(
          { position: {}, limits: { kind: 'fixed', movetime: 5_000 } },
          { onInfo: () => running(pid) && process.kill(pid, 'SIGKILL') },
        );
      });
      expect(checkBestmove({}, result.bestmove).verdict).toBe('move');
      expect(pids).toHaveLength(2);
      expect(pids[0]).not.toBe(pids[1]);
      expect(restarts).toHaveLength(1);
      expect(restarts[0]).toMatchObject({ code: 'crashed' });
      expect(pool.stats).toMatchObject({ restarts: 1, retries: 1, completed: 1, failed: 0 });
    } finally {
      await pool.close();
    }
  });
  test('an engine that dies once the pool is closing is neither replaced nor reported as a restart', async () => {
    // npm start stopped with Ctrl-C: the terminal's signal reaches the engines with the server
    const restarts: unknown[] = [];
    const { startEngine, pids } = recordingPids();
    const pool = await EnginePool.start({
      size: 1,
      engine: fairyStockfish(),
      startEngine,
      onRestart: (_slot, reason) => restarts.push(reason),
    });
    let closed: Promise<void> | null = null;
    const task = pool.run((engine) => {
      const pid = engine.pid as number;
      return engine.search(
        { position: {}, limits: { kind: 'fixed', movetime: 5_000 } },
        {
          onInfo: () => {
            if (closed !== null || !running(pid)) return;
            closed = pool.close();
            process.kill(pid, 'SIGTERM');
          },
        },
      );
    });
    await expect(task).rejects.toBeInstanceOf(UsiError);
    await closed;
    expect(restarts).toEqual([]);
    expect(pids).toHaveLength(1);
    expect(pool.stats).toMatchObject({ restarts: 0, retries: 0, failed: 1 });
  });

  test('a bot move waiting while a long preemptible search holds the only engine gets it first; the search resumes after', async () => {
    // 1. a long search (60 s by its limits) runs preemptible on the pool's one engine
    // 2. a bot move is queued: no engine is free, so the search is told to give its engine back
    // 3. it stops (USI stop), the move runs, then the search runs again and ends by depth
    const pool = await EnginePool.start({ size: 1, engine: fairyStockfish() });
    const order: string[] = [];
    try {
      let searching: () => void = () => {};
      const firstInfo = new Promise<void>((resolve) => {
        searching = resolve;
      });
      const long = async (): Promise<string> => {
        for (let slice = 1; ; slice++) {
          const result = await pool.run(
            async (engine, { preempted }) => {
              order.push(`search ${slice}`);
              const limits = slice === 1 ? { kind: 'fixed', movetime: 60_000 } : { kind: 'fixed', depth: 4 };
              const result = await engine.search({ position: {}, limits } as SearchRequest, {
                onInfo: () => searching(),
                ...(preempted ? { signal: preempted } : {}),
              });
              order.push(`search ${slice} ended${result.stopped === 'signal' ? ' (preempted)' : ''}`);
              return result;
            },
            { priority: PRIORITY.position, preemptible: true },
          );
          if (result.stopped !== 'signal') return result.bestmove.kind;
        }
      };
      const search = long();
      await firstInfo;
      const move = pool.run(
        async (engine) => {
          order.push('move');
          const result = await engine.search({ position: {}, limits: { kind: 'fixed', depth: 2 } });
          order.push('move ended');
          return result;
        },
        { priority: PRIORITY.move },
      );
      await expect(move).resolves.toMatchObject({ bestmove: { kind: 'move' } });
      await expect(search).resolves.toBe('move');
      expect(order).toEqual([
        'search 1',
        'search 1 ended (preempted)',
        'move',
        'move ended',
        'search 2',
        'search 2 ended',
      ]);
      expect(pool.stats).toMatchObject({ preemptions: 1, restarts: 0, failed: 0 });
    } finally {
      await pool.close();
    }
  });
});

describe('EnginePool', { timeout: 10_000 }, () => {
  test('bot moves go before analysis; first come first served within a priority', async () => {
    const pool = await EnginePool.start({ size: 1, engine: fake('good') });
    try {
      const held = gate();
      const order: string[] = [];
      const first = pool.run(() => held.closed);
      const tasks = [
        ['analysis 1', PRIORITY.analysis],
        ['move 1', PRIORITY.move],
        ['analysis 2', PRIORITY.analysis],
        ['move 2', PRIORITY.move],
      ].map(([name, priority]) =>
        pool.run(
          async (engine) => {
            order.push(name as string);
            return engine.search(QUICK);
          },
          { priority: priority as number },
        ),
      );
      expect(pool.stats).toMatchObject({ busy: 1, queued: 4 });
      held.open();
      await Promise.all([first, ...tasks]);
      expect(order).toEqual(['move 1', 'move 2', 'analysis 1', 'analysis 2']);
    } finally {
      await pool.close();
    }
  });

  test('only a task of higher priority preempts, only a preemptible task, and one for each waiting task', async () => {
    const pool = await EnginePool.start({ size: 2, engine: fake('good') });
    try {
      const preempted: string[] = [];
      const holders = [gate(), gate()];
      const started: string[] = [];
      const hold = (name: string, index: number, preemptible: boolean) =>
        pool.run(
          async (_engine, { preempted: signal }) => {
            started.push(name);
            signal?.addEventListener('abort', () => {
              preempted.push(name);
              holders[index]?.open();
            });
            await holders[index]?.closed;
            return name;
          },
          { priority: PRIORITY.position, preemptible },
        );
      const a = hold('a', 0, true);
      const b = hold('b', 1, false);
      expect(await until(() => started.length === 2)).toBe(true);
      // an analysis waits behind them: lower priority, nobody is preempted
      const analysis = pool.run(async () => 'analysis', { priority: PRIORITY.analysis });
      expect(preempted).toEqual([]);
      // a second position search: same priority, nobody is preempted
      const same = pool.run(async () => 'same', { priority: PRIORITY.position });
      expect(preempted).toEqual([]);
      // two moves: only `a` may give its engine back, once
      const moves = [
        pool.run(async () => 'move 1', { priority: PRIORITY.move }),
        pool.run(async () => 'move 2', { priority: PRIORITY.move }),
      ];
      expect(preempted).toEqual(['a']);
      await a;
      holders[1]?.open();
      expect(await Promise.all([b, same, analysis, ...moves])).toEqual(['b', 'same', 'analysis', 'move 1', 'move 2']);
      expect(pool.stats).toMatchObject({ preemptions: 1 });
    } finally {
      await pool.close();
    }
  });

  test('a hung engine is killed and replaced; a task that hangs it again fails after its one retry', async () => {
    const { startEngine, pids } = recordingPids();
    const pool = await EnginePool.start({ size: 1, engine: fake('silent'), startEngine });
    try {
      const error = await pool.run((engine) => engine.search(QUICK)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsiError);
      expect(error).toMatchObject({ code: 'timeout' });
      expect(pool.stats).toMatchObject({ restarts: 2, retries: 1, failed: 1 });
    } finally {
      await pool.close();
    }
    // the first engine, its replacement, and the replacement's own replacement (quit by close)
    expect(pids).toHaveLength(3);
    expect(await until(() => pids.every((pid) => !running(pid)))).toBe(true);
  });

  test('an engine that floods is replaced and the retried task succeeds on the fresh engine', async () => {
    let started = 0;
    const startEngine = (config: EngineConfig) =>
      UsiEngine.start(started++ === 0 ? fake('flood', { maxLineLength: 4096 }) : config);
    const pool = await EnginePool.start({ size: 1, engine: fake('good'), startEngine });
    try {
      const codes: string[] = [];
      const result = await pool.run((engine) =>
        engine.search(QUICK).catch((e: UsiError) => {
          codes.push(e.code);
          throw e;
        }),
      );
      expect(codes).toEqual(['line_too_long']);
      expect(result.bestmove).toEqual({ kind: 'move', move: '7g7f' });
      expect(pool.stats).toMatchObject({ restarts: 1, retries: 1, completed: 1 });
    } finally {
      await pool.close();
    }
  });

  test('with retries: 0 the task fails with the engine, which is still replaced for the next task', async () => {
    let started = 0;
    const startEngine = (config: EngineConfig) => UsiEngine.start(started++ === 0 ? fake('crash') : config);
    const pool = await EnginePool.start({ size: 1, engine: fake('good'), startEngine, retries: 0 });
    try {
      await expect(pool.run((engine) => engine.search(QUICK))).rejects.toMatchObject({ code: 'crashed' });
      await expect(pool.run((engine) => engine.search(QUICK))).resolves.toMatchObject({
        bestmove: { move: '7g7f' },
      });
      expect(pool.stats).toMatchObject({ restarts: 1, retries: 0, completed: 1, failed: 1 });
    } finally {
      await pool.close();
    }
  });

  test("a task's own error leaves its engine in place and is not retried", async () => {
    const pool = await EnginePool.start({ size: 1, engine: fake('malformed') });
    try {
      const pids = new Set<number | undefined>();
      const bad = pool.run(async (engine) => {
        pids.add(engine.pid);
        return engine.search(QUICK);
      });
      await expect(bad).rejects.toMatchObject({ code: 'bad_bestmove' });
      await expect(pool.run(async () => Promise.reject(new Error('mine')))).rejects.toThrow('mine');
      await pool.run(async (engine) => pids.add(engine.pid));
      expect(pids.size).toBe(1);
      expect(pool.stats).toMatchObject({ restarts: 0, retries: 0, failed: 2, completed: 1 });
    } finally {
      await pool.close();
    }
  });

  test('a full queue refuses; an aborted waiting task leaves the queue; close fails the waiting and lets the running finish', async () => {
    const { startEngine, pids } = recordingPids();
    const pool = await EnginePool.start({ size: 1, engine: fake('good'), maxQueued: 2, startEngine });
    const held = gate();
    const busy = pool.run(async (engine) => {
      await held.closed;
      return engine.search(QUICK);
    });
    const controller = new AbortController();
    const aborted = pool.run(async () => 'never', { signal: controller.signal });
    const waiting = pool.run(async () => 'never');
    await expect(pool.run(async () => 'never')).rejects.toMatchObject({ code: 'queue_full' });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'aborted' });
    expect(pool.stats.queued).toBe(1);

    const closed = pool.close();
    await expect(waiting).rejects.toMatchObject({ code: 'closed' });
    await expect(pool.run(async () => 'late')).rejects.toMatchObject({ code: 'closed' });
    held.open();
    await expect(busy).resolves.toMatchObject({ bestmove: { move: '7g7f' } });
    await closed;
    expect(pids).toHaveLength(1);
    expect(await until(() => pids.every((pid) => !running(pid)))).toBe(true);
  });

  test('start fails, leaving nothing running, when an engine cannot start', async () => {
    await expect(EnginePool.start({ size: 2, engine: { path: '/nonexistent/engine' } })).rejects.toMatchObject({
      code: 'spawn_failed',
    });
    await expect(EnginePool.start({ size: 0, engine: fake('good') })).rejects.toMatchObject({ code: 'bad_command' });
  });
});

describe('PriorityQueue', () => {
  test('higher priority first, first come first served within a priority', () => {
    const q = new PriorityQueue<string>();
    q.push('analysis 1', 0);
    q.push('move 1', 10);
    q.push('analysis 2', 0);
    q.push('move 2', 10);
    q.push('urgent', 20);
    expect(q.length).toBe(5);
    expect(q.shift()).toBe('urgent');
    expect(q.remove('analysis 1')).toBe(true);
    expect(q.remove('analysis 1')).toBe(false);
    expect(q.drain()).toEqual(['move 1', 'move 2', 'analysis 2']);
    expect(q.shift()).toBeUndefined();
  });
});
