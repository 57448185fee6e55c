/**
 * How long a busy thread loses its core on this machine: N threads spin for S seconds and
 * report every gap between two consecutive clock reads above 1 ms (the thread was not
 * running). With one thread on an idle two-core machine the gaps stay small; when every
 * core is busy they show the scheduling delays a server's event loop sees under load.
 *
 *   npx tsx bench/e2e/core-gaps.ts --threads 2 --seconds 10
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

// plain JavaScript, run with `eval` (a worker thread does not inherit tsx's loader on Node 20)
const SPIN = `
const { parentPort, workerData } = require('node:worker_threads');
const end = process.hrtime.bigint() + BigInt(Math.round(workerData.seconds * 1e9));
const gaps = [];
let last = process.hrtime.bigint();
for (;;) {
  const now = process.hrtime.bigint();
  if (now >= end) break;
  const gap = Number(now - last) / 1e6;
  if (gap > 1) gaps.push(gap);
  last = now;
}
parentPort.postMessage(gaps);
`;

const { values } = parseArgs({
  options: { threads: { type: 'string', default: '1' }, seconds: { type: 'string', default: '10' } },
});
const threads = Number(values.threads);
const seconds = Number(values.seconds);
const results = await Promise.all(
  Array.from(
    { length: threads },
    () =>
      new Promise<number[]>((resolve, reject) => {
        const w = new Worker(SPIN, { eval: true, workerData: { seconds } });
        w.once('message', resolve);
        w.once('error', reject);
      }),
  ),
);
results.forEach((gaps, i) => {
  const top = [...gaps].sort((a, b) => b - a).slice(0, 5);
  console.log(
    `thread ${i + 1}/${threads}: ${gaps.length} gaps > 1 ms in ${seconds} s; longest ${top.map((g) => g.toFixed(1)).join(', ') || '-'} ms`,
  );
});
