/**
 * CPU seconds of the bench's own processes, from /proc (Linux only): the server it started and
 * itself. Not bench/e2e/cpu.ts's groups by command line, which would also count other servers
 * and benches on a shared machine; PostgreSQL and Redis are left out for the same reason.
 */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` (all its threads), seconds; NaN once it has gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds so far of each named process. */
export const cpuOf = (pids: ReadonlyMap<string, number>): Map<string, number> =>
  new Map([...pids].map(([name, pid]) => [name, cpuSeconds(pid)]));
