/** The bench's printed figures. */
import type { WindowUsage } from './cpu.js';

/** One move's time, split by the timestamps the server records (ms; wall clocks of one machine). */
export const BREAKDOWN = [
  /** client send → verdict at the mover */
  'total',
  /** HTTP only: submit → 202 (NaN over the WebSocket) */
  'ack',
  /** client send → gateway's receivedAt (network, parsing, auth, tail read) */
  'intake',
  /** receivedAt → MoveSubmitted recorded (decide + append) */
  'appendSubmitted',
  /** MoveSubmitted recorded → verdict recorded (enqueue, queue wait, worker read, validate, append) */
  'toVerdictAppend',
  /** verdict recorded → the mover's socket (commit, publish, hub, WebSocket) */
  'verdictToClient',
] as const;
export type Breakdown = Record<(typeof BREAKDOWN)[number], number>;

/**
 * Rows of numbers kept in typed arrays, column by column. A run records seven numbers for
 * each of 100,000+ moves; kept as objects they were promoted to the bench's old generation
 * (a large share of what it promoted), whose mark-compact pauses were then measured as the
 * server's latency of every move in flight (bench/e2e/NOTES.md). Typed arrays' contents are off the heap.
 */
export class Columns<K extends string> {
  #size = 0;
  #data: Float64Array[];

  constructor(readonly keys: readonly K[]) {
    this.#data = keys.map(() => new Float64Array(1 << 14));
  }

  get size(): number {
    return this.#size;
  }

  push(row: Readonly<Record<K, number>>): void {
    if (this.#size === (this.#data[0] as Float64Array).length)
      this.#data = this.#data.map((old) => {
        const grown = new Float64Array(old.length * 2);
        grown.set(old);
        return grown;
      });
    this.keys.forEach((k, i) => {
      (this.#data[i] as Float64Array)[this.#size] = row[k];
    });
    this.#size++;
  }

  /** The column's values, NaN (not recorded) left out. */
  column(key: K): Float64Array {
    const all = (this.#data[this.keys.indexOf(key)] as Float64Array).subarray(0, this.#size);
    return all.filter((v) => !Number.isNaN(v));
  }
}

export interface Report {
  /** Every measured move's submit → verdict (ms). */
  readonly latencies: Float64Array;
  readonly breakdowns: Columns<keyof Breakdown>;
  readonly accepted: number;
  readonly rejected: number;
  readonly errors: number;
  readonly games: number;
  readonly seconds: number;
  readonly jobs: readonly { wait: number; run: number }[] | null;
}

export const percentile = (sorted: ArrayLike<number>, p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

const fmt = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(1).padStart(7));

function line(name: string, values: ArrayLike<number>): string {
  const sorted = Float64Array.from(values).sort();
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return `  ${name.padEnd(44)} mean ${fmt(mean)}  p50 ${fmt(percentile(sorted, 50))}  p99 ${fmt(percentile(sorted, 99))} ms`;
}

/** The headline figures as one JSON line after `SUMMARY_TAG`, for a bench that runs this one as a child. */
export const SUMMARY_TAG = 'e2e-summary ';

export function summaryLine(
  r: Pick<Report, 'latencies' | 'accepted' | 'rejected' | 'errors' | 'seconds'>,
  usage: WindowUsage | null = null,
): string {
  const sorted = r.latencies.slice().sort();
  return `${SUMMARY_TAG}${JSON.stringify({
    accepted: r.accepted,
    rejected: r.rejected,
    errors: r.errors,
    movesPerSecond: r.accepted / r.seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? null,
    ...(usage === null ? {} : { usage }),
  })}`;
}

export function printReport(r: Report): void {
  const sorted = r.latencies.slice().sort();
  console.log('');
  console.log(
    `accepted moves: ${r.accepted} in ${r.seconds.toFixed(1)} s = ${(r.accepted / r.seconds).toFixed(0)} moves/s`,
  );
  console.log(`rejected: ${r.rejected}, errors: ${r.errors}, games started: ${r.games}`);
  console.log(
    `submit → verdict at the mover: p50 ${percentile(sorted, 50).toFixed(1)} ms, p90 ${percentile(sorted, 90).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms`,
  );
  const b = r.breakdowns;
  if (b.size > 0) {
    console.log(`where the time goes (${b.size} moves; server stamps have 1 ms resolution):`);
    console.log(line('total submit → verdict', b.column('total')));
    const acks = b.column('ack');
    if (acks.length > 0) console.log(line('HTTP submit → 202', acks));
    console.log(line('client → gateway receivedAt', b.column('intake')));
    console.log(line('gateway decide + append MoveSubmitted', b.column('appendSubmitted')));
    console.log(line('submitted → verdict appended (queue+worker)', b.column('toVerdictAppend')));
    console.log(line('verdict appended → mover socket (publish)', b.column('verdictToClient')));
  }
  if (r.jobs && r.jobs.length > 0) {
    console.log(`BullMQ stamps of the last ${r.jobs.length} completed validate jobs:`);
    console.log(
      line(
        'queue wait (added → processing)',
        r.jobs.map((j) => j.wait),
      ),
    );
    console.log(
      line(
        'worker read + validate + append + publish',
        r.jobs.map((j) => j.run),
      ),
    );
  }
}
