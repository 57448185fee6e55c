/** The bench's printed figures. */

export interface Sample {
  readonly at: number;
  readonly ms: number;
}

/** One move's time, split by the timestamps the server records (ms; wall clocks of one machine). */
export interface Breakdown {
  readonly total: number;
  /** HTTP only: submit → 202 */
  readonly ack: number | null;
  /** client send → gateway's receivedAt (network, parsing, auth, tail read) */
  readonly intake: number;
  /** receivedAt → MoveSubmitted recorded (decide + append) */
  readonly appendSubmitted: number;
  /** MoveSubmitted recorded → verdict recorded (enqueue, queue wait, worker read, validate, append) */
  readonly toVerdictAppend: number;
  /** verdict recorded → the mover's socket (commit, publish, hub, WebSocket) */
  readonly verdictToClient: number;
}

export interface Report {
  readonly samples: readonly Sample[];
  readonly breakdowns: readonly Breakdown[];
  readonly accepted: number;
  readonly rejected: number;
  readonly errors: number;
  readonly games: number;
  readonly seconds: number;
  readonly jobs: readonly { wait: number; run: number }[] | null;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

const fmt = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(1).padStart(7));

function line(name: string, values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return `  ${name.padEnd(44)} mean ${fmt(mean)}  p50 ${fmt(percentile(sorted, 50))}  p99 ${fmt(percentile(sorted, 99))} ms`;
}

export function printReport(r: Report): void {
  const latencies = r.samples.map((s) => s.ms);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log('');
  console.log(
    `accepted moves: ${r.accepted} in ${r.seconds.toFixed(1)} s = ${(r.accepted / r.seconds).toFixed(0)} moves/s`,
  );
  console.log(`rejected: ${r.rejected}, errors: ${r.errors}, games started: ${r.games}`);
  console.log(
    `submit → verdict at the mover: p50 ${percentile(sorted, 50).toFixed(1)} ms, p90 ${percentile(sorted, 90).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms`,
  );
  if (r.breakdowns.length > 0) {
    console.log(`where the time goes (${r.breakdowns.length} moves; server stamps have 1 ms resolution):`);
    console.log(
      line(
        'total submit → verdict',
        r.breakdowns.map((b) => b.total),
      ),
    );
    const acks = r.breakdowns.flatMap((b) => (b.ack === null ? [] : [b.ack]));
    if (acks.length > 0) console.log(line('HTTP submit → 202', acks));
    console.log(
      line(
        'client → gateway receivedAt',
        r.breakdowns.map((b) => b.intake),
      ),
    );
    console.log(
      line(
        'gateway decide + append MoveSubmitted',
        r.breakdowns.map((b) => b.appendSubmitted),
      ),
    );
    console.log(
      line(
        'submitted → verdict appended (queue+worker)',
        r.breakdowns.map((b) => b.toVerdictAppend),
      ),
    );
    console.log(
      line(
        'verdict appended → mover socket (publish)',
        r.breakdowns.map((b) => b.verdictToClient),
      ),
    );
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
