/**
 * A fixed number of engines shared by tasks. A task leases a free engine, or waits in a
 * queue ordered by priority (bot moves before analysis); an engine that dies or hangs
 * during a task is replaced, and the task runs again on the fresh one.
 */
import { UsiEngine } from './engine.js';
import type { EngineConfig } from './engine-config.js';
import { UsiError } from './errors.js';
import { PriorityQueue } from './queue.js';

/** Priorities for `run`: higher goes first. */
// fair play's screening waits behind both: it runs only on engines nobody else asked for
export const PRIORITY = { move: 10, analysis: 0, screening: -10 } as const;

export interface EnginePoolConfig {
  /** How many engines run at once. */
  readonly size: number;
  /** Every engine's binary and options (e.g. `{ Hash: 64, Threads: 1 }`). */
  readonly engine: EngineConfig;
  /** How many times a task whose engine died is run again on a fresh engine. */
  readonly retries?: number;
  /** Tasks that may wait at once; more are refused with `queue_full`. */
  readonly maxQueued?: number;
  /** Starts one engine; tests swap in their own. */
  readonly startEngine?: (config: EngineConfig, slot: number) => Promise<UsiEngine>;
  /** Told each time a dead or hung engine is replaced: for logs. */
  readonly onRestart?: (slot: number, reason: unknown) => void;
}

export interface TaskContext {
  /** 0 on the first run, then 1, 2… on fresh engines after the earlier ones died. */
  readonly attempt: number;
  readonly signal?: AbortSignal;
}
export type EngineTask<T> = (engine: UsiEngine, context: TaskContext) => Promise<T>;

export interface RunOptions {
  /** Higher runs first; see PRIORITY. */
  readonly priority?: number;
  /** Aborting takes a waiting task out of the queue; a running task gets it in its context. */
  readonly signal?: AbortSignal;
}

export interface PoolStats {
  readonly size: number;
  readonly busy: number;
  readonly queued: number;
  /** Engines replaced after they died or hung. */
  readonly restarts: number;
  /** Tasks run again after their engine died. */
  readonly retries: number;
  readonly completed: number;
  readonly failed: number;
}

interface Slot {
  readonly index: number;
  engine: UsiEngine | null;
  starting: Promise<UsiEngine> | null;
  busy: boolean;
}

interface Job {
  readonly task: EngineTask<unknown>;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

export class EnginePool {
  private readonly config: EnginePoolConfig;
  private readonly slots: Slot[];
  private readonly queue = new PriorityQueue<Job>();
  private readonly running = new Set<Promise<void>>();
  private readonly counts = { restarts: 0, retries: 0, completed: 0, failed: 0 };
  private closing: Promise<void> | null = null;

  private constructor(config: EnginePoolConfig) {
    if (!Number.isSafeInteger(config.size) || config.size < 1)
      throw new UsiError('bad_command', 'a pool has at least one engine');
    this.config = config;
    this.slots = Array.from({ length: config.size }, (_, index) => ({
      index,
      engine: null,
      starting: null,
      busy: false,
    }));
  }

  /** Starts every engine; rejects (with nothing left running) if one cannot start. */
  static async start(config: EnginePoolConfig): Promise<EnginePool> {
    const pool = new EnginePool(config);
    const started = await Promise.allSettled(pool.slots.map((slot) => pool.startEngine(slot)));
    const failure = started.find((s) => s.status === 'rejected');
    if (failure !== undefined) {
      await pool.close();
      throw failure.reason;
    }
    return pool;
  }

  get stats(): PoolStats {
    const busy = this.slots.filter((slot) => slot.busy).length;
    return { size: this.slots.length, busy, queued: this.queue.length, ...this.counts };
  }

  /** The live engines' process ids by slot (undefined while one starts or after it died): for operators and tests. */
  get pids(): readonly (number | undefined)[] {
    return this.slots.map((slot) => (slot.engine?.alive ? slot.engine.pid : undefined));
  }

  /** Runs `task` on a leased engine; resolves or rejects with the task's outcome. */
  run<T>(task: EngineTask<T>, options: RunOptions = {}): Promise<T> {
    if (this.closing !== null) return Promise.reject(new UsiError('closed', 'the engine pool is closed'));
    if (options.signal?.aborted) return Promise.reject(new UsiError('aborted', 'the task was aborted before it ran'));
    const maxQueued = this.config.maxQueued ?? 1000;
    if (this.queue.length >= maxQueued)
      return Promise.reject(new UsiError('queue_full', `${maxQueued} tasks are already waiting for an engine`));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        task,
        signal: options.signal,
        resolve: resolve as (value: unknown) => void,
        reject,
        onAbort: () => {
          if (this.queue.remove(job)) reject(new UsiError('aborted', 'the task was aborted while it waited'));
        },
      };
      options.signal?.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job, options.priority ?? 0);
      this.dispatch();
    });
  }

  /** Refuses new tasks, fails the waiting ones, lets running ones finish, then quits the engines. */
  close(): Promise<void> {
    if (this.closing !== null) return this.closing;
    for (const job of this.queue.drain()) {
      job.signal?.removeEventListener('abort', job.onAbort);
      job.reject(new UsiError('closed', 'the engine pool closed before the task ran'));
    }
    this.closing = (async () => {
      await Promise.allSettled([...this.running]);
      await Promise.allSettled(this.slots.map((slot) => slot.starting));
      await Promise.all(this.slots.map((slot) => slot.engine?.quit()));
    })();
    return this.closing;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy || this.closing !== null) continue;
      const job = this.queue.shift();
      if (job === undefined) return;
      job.signal?.removeEventListener('abort', job.onAbort);
      slot.busy = true;
      const running = this.attempts(slot, job)
        .then(
          (value) => {
            this.counts.completed++;
            job.resolve(value);
          },
          (error: unknown) => {
            this.counts.failed++;
            job.reject(error);
          },
        )
        .finally(() => {
          this.running.delete(running);
          slot.busy = false;
          this.dispatch();
        });
      this.running.add(running);
    }
  }

  private async attempts(slot: Slot, job: Job): Promise<unknown> {
    const retries = this.config.retries ?? 1;
    for (let attempt = 0; ; attempt++) {
      const engine = await this.engineOf(slot);
      try {
        const value = await job.task(engine, { attempt, ...(job.signal ? { signal: job.signal } : {}) });
        if (!engine.idle) this.retire(slot, engine.error ?? 'the task left the engine busy');
        return value;
      } catch (error) {
        if (engine.idle) throw error;
        const died = !engine.alive;
        this.retire(slot, engine.error ?? error);
        // only an engine's death is worth another run: a live but busy engine means a task bug
        if (!died || attempt >= retries || job.signal?.aborted || this.closing !== null) throw error;
        this.counts.retries++;
      }
    }
  }

  private engineOf(slot: Slot): Promise<UsiEngine> {
    if (slot.engine?.alive) return Promise.resolve(slot.engine);
    if (slot.engine !== null) this.retire(slot, slot.engine.error);
    return slot.starting ?? this.startEngine(slot);
  }

  private startEngine(slot: Slot): Promise<UsiEngine> {
    const start = this.config.startEngine ?? ((config: EngineConfig) => UsiEngine.start(config));
    const starting = start(this.config.engine, slot.index).then(
      (engine) => {
        slot.starting = null;
        slot.engine = engine;
        return engine;
      },
      (error: unknown) => {
        slot.starting = null;
        throw error;
      },
    );
    slot.starting = starting;
    return starting;
  }

  /**
   * Kills the slot's engine and starts its replacement at once, so the next task need not wait
   * for it. Once the pool closes nothing is replaced: an engine that dies then (a terminal's
   * Ctrl-C reaches the engines with the server) is no restart.
   */
  private retire(slot: Slot, reason: unknown): void {
    slot.engine?.kill();
    slot.engine = null;
    if (this.closing !== null) return;
    this.counts.restarts++;
    try {
      this.config.onRestart?.(slot.index, reason);
    } catch {
      // a failing log hook must not stop the replacement
    }
    // a failed start here is met again, and reported, by the next task that needs the slot
    if (slot.starting === null) this.startEngine(slot).catch(() => {});
  }
}
