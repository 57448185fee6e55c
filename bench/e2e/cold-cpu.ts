/**
 * How much slower this machine runs the same JavaScript after being idle: a fixed piece
 * of work (parsing a verdict-sized JSON frame 200 times), already optimized by the JIT,
 * timed after idle gaps of 0 to 250 ms. Work that follows a gap runs with cold caches
 * (the core slept, or other processes ran on it), so a lone move on a quiet server takes
 * several times the CPU it takes under load: that, not queueing, is much of the latency
 * floor of a quiet server.
 *
 *   npx tsx bench/e2e/cold-cpu.ts [--rounds 40]
 */
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const ROUNDS = Number(args.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 10) throw new Error('--rounds must be an integer >= 10');

const frame = JSON.stringify({
  type: 'events',
  events: Array.from({ length: 3 }, (_, seq) => ({
    seq,
    type: 'MoveAccepted',
    payload: { usi: '7g7f', ply: seq, sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' },
  })),
});

function work(): number {
  let n = 0;
  for (let i = 0; i < 200; i++) n += (JSON.parse(frame) as { events: unknown[] }).events.length;
  return n;
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main() {
  let sink = 0;
  for (let i = 0; i < 2_000; i++) sink += work(); // optimized before anything is timed
  const base: number[] = [];
  for (const gap of [0, 1, 10, 100, 250]) {
    const took: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await pause(gap);
      const t0 = process.hrtime.bigint();
      sink += work();
      took.push(Number(process.hrtime.bigint() - t0) / 1_000);
    }
    took.sort((a, b) => a - b);
    const p50 = quantile(took, 0.5) as number;
    if (gap === 0) base.push(p50);
    const ratio = p50 / (base[0] as number);
    console.log(
      `idle ${String(gap).padStart(3)} ms before: p50 ${p50.toFixed(0).padStart(5)} µs  p90 ${(quantile(took, 0.9) as number).toFixed(0).padStart(5)} µs  (${ratio.toFixed(1)}× the busy p50)`,
    );
  }
  if (sink < 0) console.log(sink);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
