/**
 * Which slow moves came at a garbage collection: reads the e2e bench's output (run with
 * `--slow MS --slow-max 5000`) and the GC logs of gc-observer.mjs, groups the slow moves into
 * bursts (each within 150 ms of the one before), and prints each burst with the collections
 * that began from 200 ms before it to its end (majors, and any other longer than 4 ms).
 *
 *   npx tsx bench/e2e/gc-bursts.ts bench.out gc-server.log [gc-bench.log]
 */
import { readFileSync } from 'node:fs';

const [benchOut, ...gcLogs] = process.argv.slice(2);
if (benchOut === undefined || gcLogs.length === 0) {
  console.error('usage: gc-bursts.ts <bench output> <server gc log> [<bench gc log>]');
  process.exit(2);
}

interface Gc {
  readonly at: number;
  readonly kind: string;
  readonly ms: number;
  readonly source: string;
}
const gcs: Gc[] = gcLogs.flatMap((file, i) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [at, kind, ms] = line.split(' ');
      return { at: Number(at), kind: kind ?? '?', ms: Number(ms), source: i === 0 ? 'server' : 'bench' };
    }),
);

const slow: { at: number; total: number }[] = [];
for (const line of readFileSync(benchOut, 'utf8').split('\n')) {
  const m = /slow move at (\S+) ply \d+: (\{.*\})$/.exec(line);
  if (m?.[1] !== undefined && m[2] !== undefined)
    slow.push({ at: Date.parse(m[1]), total: (JSON.parse(m[2]) as { total: number }).total });
}
slow.sort((a, b) => a.at - b.at);

interface Burst {
  start: number;
  end: number;
  moves: number;
  worst: number;
}
const bursts: Burst[] = [];
for (const s of slow) {
  const last = bursts.at(-1);
  if (last !== undefined && s.at - last.end < 150) {
    last.moves++;
    last.end = s.at;
    last.worst = Math.max(last.worst, s.total);
  } else bursts.push({ start: s.at, end: s.at, moves: 1, worst: s.total });
}

let atMajor = 0;
for (const b of bursts) {
  const near = gcs.filter(
    (g) => g.at > b.start - 200 && g.at < b.end + 10 && (g.kind === 'major' || (g.kind !== 'weakcb' && g.ms > 4)),
  );
  if (near.some((g) => g.kind === 'major' && g.source === 'server')) atMajor += b.moves;
  const what = near.map((g) => `${g.source} ${g.kind} ${g.ms.toFixed(1)} ms at ${(g.at - b.start).toFixed(0)}`);
  console.log(
    `${new Date(b.start).toISOString().slice(11, 23)}  ${String(b.moves).padStart(4)} slow moves, worst ${b.worst.toFixed(1)} ms  ${what.join('; ')}`,
  );
}
console.log(`${slow.length} slow moves in ${bursts.length} bursts; ${atMajor} in bursts at a server mark-compact`);
