/**
 * Writes each garbage collection of the process it is loaded into, one line per GC:
 * `<wall-clock ms since the epoch> <major|minor|incremental|weakcb> <duration ms>`, appended to the
 * file named by GC_LOG (default gc.log in the working directory; remove it before a run).
 * Appended, because NODE_OPTIONS loads it into npx and tsx too, which write to the same file.
 * Load it into the server, the bench or both, and give both logs to gc-bursts.ts:
 *
 *   node --import ./bench/e2e/gc-observer.mjs apps/server/dist/main.js --no-demo
 *   GC_LOG=gc-bench.log NODE_OPTIONS=--import=./bench/e2e/gc-observer.mjs npm run bench:e2e -- ... --slow 25 --slow-max 5000
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const fd = openSync(process.env.GC_LOG ?? 'gc.log', 'a');
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? 'other';
    writeSync(fd, `${(performance.timeOrigin + entry.startTime).toFixed(1)} ${kind} ${entry.duration.toFixed(2)}\n`);
  }
});
observer.observe({ entryTypes: ['gc'] });
process.once('exit', () => closeSync(fd));
