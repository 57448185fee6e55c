/**
 * A fixed number of engines shared by tasks. A task leases a free engine, or waits in a
 * queue ordered by priority (bot moves before analysis); an engine that dies or hangs
 * during a task is replaced, and the task runs again on the fresh one. A task run as
 * `preemptible` (a long interactive search) is asked to give its engine back, through its
 * context's `preempted` signal, when a task of higher priority waits and no engine is free.
 */
import { UsiEngine } from './engine.js';
import type { EngineConfig } from './engine-config.js';
import { UsiError } from './errors.js';
import { PriorityQueue } from './queue.js';

/** Priorities for `run`: higher goes first; fair play's screening last, on engines nobody else asked for. */
export const PRIORITY = { move: 10, position: 5, analysis: 0, screening: -10 } as const;

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
  /**
   * Fires when a task of higher priority waits for this engine (preemptible tasks only): the
   * task should end soon (a search: USI `stop`) and may run again later to resume.
   */
  readonly preempted?: AbortSignal;
}
export type EngineTask<T> = (engine: UsiEngine, context: TaskContext) => Promise<T>;

export interface RunOptions {
  /** Higher runs first; see PRIORITY. */
  readonly priority?: number;
  /** Aborting takes a waiting task out of the queue; a running task gets it in its context. */
  readonly signal?: AbortSignal;
  /** The task gives its engine back when asked (its context's `preempted`); see the class comment. */
  readonly preemptible?: boolean;
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
  /** Running tasks asked to give their engine back to a task of higher priority. */
  readonly preemptions: number;
}

interface Slot {
  readonly index: number;
  engine: UsiEngine | null;
  starting: Promise<UsiEngine> | null;
  busy: boolean;
  /** the job running on the slot, while one does */
  job: Job | null;
}

interface Job {
  readonly task: EngineTask<unknown>;
  readonly signal: AbortSignal | undefined;
  readonly priority: number;
  /** set for a preemptible job */
  readonly preemption: AbortController | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

export class EnginePool {
  private readonly config: EnginePoolConfig;
  private readonly slots: Slot[];
  private readonly queue = new PriorityQueue<Job>();
  private readonly running = new Set<Promise<void>>();
  private readonly counts = { restarts: 0, retries: 0, completed: 0, failed: 0, preemptions: 0 };
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
      job: null,
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

  /** The waiting tasks' priorities, in the order they will be served (for operators' metrics). */
  get queuedPriorities(): readonly number[] {
    return this.queue.priorities();
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
      const priority = options.priority ?? 0;
      const job: Job = {
        task,
        signal: options.signal,
        priority,
        preemption: options.preemptible ? new AbortController() : undefined,
        resolve: resolve as (value: unknown) => void,
        reject,
        onAbort: () => {
          if (this.queue.remove(job)) reject(new UsiError('aborted', 'the task was aborted while it waited'));
        },
      };
      options.signal?.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job, priority);
      this.dispatch();
      this.preempt();
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
      slot.job = job;
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
          slot.job = null;
          this.dispatch();
        });
      this.running.add(running);
    }
  }

  /**
   * Asks running preemptible tasks to give their engines back, one for each waiting task of
   * higher priority that no engine already being given back will serve. Called once a task
   * has been queued and the free engines dispatched: a task still waiting found none free.
   */
  private preempt(): void {
    const running = this.slots.flatMap((slot) => (slot.job === null ? [] : [slot.job]));
    let givingBack = running.filter((job) => job.preemption?.signal.aborted).length;
    const candidates = running
      .filter((job) => job.preemption !== undefined && !job.preemption.signal.aborted)
      .sort((a, b) => a.priority - b.priority);
    for (const waiting of this.queue.priorities()) {
      if (givingBack > 0) {
        givingBack--;
        continue;
      }
      const victim = candidates.findIndex((job) => job.priority < waiting);
      if (victim < 0) return;
      const [job] = candidates.splice(victim, 1);
      this.counts.preemptions++;
      job?.preemption?.abort(new UsiError('aborted', 'a task of higher priority needs the engine'));
    }
  }

  private async attempts(slot: Slot, job: Job): Promise<unknown> {
    const retries = this.config.retries ?? 1;
    for (let attempt = 0; ; attempt++) {
      const engine = await this.engineOf(slot);
      try {
        const value = await job.task(engine, {
          attempt,
          ...(job.signal ? { signal: job.signal } : {}),
          ...(job.preemption ? { preempted: job.preemption.signal } : {}),
        });
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
