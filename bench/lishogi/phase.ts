/**
 * One phase of the bench: N games on one path for warm-up + window seconds, and what it
 * measured. A move counts when it was sent inside the window; the games started before the
 * window (all of them start at once) are its warm-up. The phases of one N and path, one a
 * round, are pooled in a Tally.
 */
import { performance } from 'node:perf_hooks';
import { percentile } from '../e2e/report.js';

/** Numbers in a growing typed array: a phase keeps tens of thousands, and objects would be the bench's garbage. */
export class Samples {
  #data = new Float64Array(1 << 12);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(value: number): void {
    if (this.#size === this.#data.length) {
      const grown = new Float64Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.#size++] = value;
  }

  sorted(): Float64Array {
    return this.#data.slice(0, this.#size).sort();
  }

  append(other: Samples): void {
    for (let i = 0; i < other.#size; i++) this.push(other.#data[i] as number);
  }
}

/** What a phase measured; `Tally` pools the phases of one N and path. */
class Measured {
  /** send → the opponent sees the move, ms */
  readonly latency = new Samples();
  /** the same, by the mover's API (lishogi: `bot`, `board`) */
  readonly byMover = new Map<string, Samples>();
  /** send → the move POST's answer, ms (lishogi only: the native frame has no answer of its own) */
  readonly answer = new Samples();
  /** what went wrong, by kind, with the first detail of each */
  readonly problems = new Map<string, { count: number; first: string }>();
  gamesStarted = 0;

  get problemCount(): number {
    let n = 0;
    for (const { count } of this.problems.values()) n += count;
    return n;
  }
}

export class Phase extends Measured {
  readonly measureFrom: number;
  readonly stopAt: number;

  constructor(warmupSeconds: number, seconds: number) {
    super();
    this.measureFrom = performance.now() + warmupSeconds * 1000;
    this.stopAt = this.measureFrom + seconds * 1000;
  }

  /** past the window: games end (the side to move resigns) and no new one starts */
  get over(): boolean {
    return performance.now() >= this.stopAt;
  }

  measures(sentAt: number): boolean {
    return sentAt >= this.measureFrom && sentAt < this.stopAt;
  }

  seen(mover: string, sentAt: number, at: number): void {
    if (!this.measures(sentAt)) return;
    this.latency.push(at - sentAt);
    let samples = this.byMover.get(mover);
    if (samples === undefined) {
      samples = new Samples();
      this.byMover.set(mover, samples);
    }
    samples.push(at - sentAt);
  }

  answered(sentAt: number, at: number): void {
    if (this.measures(sentAt)) this.answer.push(at - sentAt);
  }

  problem(kind: string, detail: string): void {
    const known = this.problems.get(kind);
    if (known === undefined) this.problems.set(kind, { count: 1, first: detail });
    else known.count++;
  }
}

/** The resources a window used: CPU seconds by process (own-cpu.ts), PostgreSQL transactions. */
export interface Usage {
  readonly cpu: ReadonlyMap<string, number>;
  readonly transactions: number;
}

export class Tally extends Measured {
  /** the windows' seconds, summed */
  seconds = 0;
  readonly cpu = new Map<string, number>();
  transactions = 0;
  /** each round's p50 send → seen, in the order run */
  readonly roundP50s: number[] = [];

  add(phase: Phase, seconds: number, used: Usage): void {
    this.latency.append(phase.latency);
    this.answer.append(phase.answer);
    for (const [mover, samples] of phase.byMover) {
      let pooled = this.byMover.get(mover);
      if (pooled === undefined) {
        pooled = new Samples();
        this.byMover.set(mover, pooled);
      }
      pooled.append(samples);
    }
    for (const [kind, { count, first }] of phase.problems) {
      const known = this.problems.get(kind);
      if (known === undefined) this.problems.set(kind, { count, first });
      else known.count += count;
    }
    this.gamesStarted += phase.gamesStarted;
    this.seconds += seconds;
    for (const [name, s] of used.cpu) this.cpu.set(name, (this.cpu.get(name) ?? 0) + s);
    this.transactions += used.transactions;
    this.roundP50s.push(percentile(phase.latency.sorted(), 50));
  }
}
