/**
 * Moments when this virtual machine did not run at all: every 100 ms it reads /proc/stat
 * and counts the CPU time the guest kernel accounted (user, system, idle, iowait, irq,
 * softirq, steal) against the wall time that passed on all CPUs. A stretch where both are
 * far apart is time the host took every virtual CPU away without reporting it as steal —
 * nothing inside the VM can be scheduled then, so every request in flight waits it out.
 * Run it beside a bench (or alone, idle, for comparison):
 *
 *   npx tsx bench/e2e/vm-stalls.ts --seconds 60
 *
 * Prints each 100 ms window with less than 3/4 of its time accounted, then a summary.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' } } });
const seconds = Number(values.seconds);
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('--seconds must be a positive number');

const TICK_MS = 10; // USER_HZ = 100 on Linux
const WINDOW_MS = 100;
const nCpus = cpus().length;

/** All accounted ticks of the machine (the first line of /proc/stat, guest time excluded). */
function accountedTicks(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1, 9);
  return fields.reduce((sum, f) => sum + Number(f), 0);
}

let lastTicks = accountedTicks();
let lastAt = performance.now();
const end = lastAt + seconds * 1000;
let windows = 0;
let stalls = 0;
let lostMs = 0;
const timer = setInterval(() => {
  const now = performance.now();
  const ticks = accountedTicks();
  const wallMs = (now - lastAt) * nCpus;
  const accountedMs = (ticks - lastTicks) * TICK_MS;
  windows++;
  // ticks are 10 ms coarse: only a clear shortfall counts
  if (accountedMs < 0.75 * wallMs) {
    stalls++;
    lostMs += wallMs - accountedMs;
    console.log(
      `${new Date().toISOString()} window ${(now - lastAt).toFixed(0)} ms: ${accountedMs} of ${wallMs.toFixed(0)} CPU-ms accounted`,
    );
  }
  lastTicks = ticks;
  lastAt = now;
  if (now >= end) {
    clearInterval(timer);
    console.log(
      `${windows} windows of ${WINDOW_MS} ms on ${nCpus} CPUs: ${stalls} with under 3/4 of their time accounted, ` +
        `${(lostMs / nCpus).toFixed(0)} ms of wall time lost on every CPU at once (about)`,
    );
  }
}, WINDOW_MS);
