/**
 * CPU time and read/write system calls by process group over the measured window, from /proc
 * (Linux only): which of PostgreSQL, Redis, the gateway, the worker, the engine role's engines
 * and this bench pays for a move. The calls are counted, not timed: on a VM whose speed moves
 * from one run to the next they compare runs where CPU time does not (each socket write is a
 * trip through the kernel's network stack and a wake-up of the process at the other end).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

const cmdline = (pid: string): string | null => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
};

const isServer = (cmd: string): boolean =>
  cmd.includes('apps/server/dist/main.js') || cmd.includes('apps/server/src/main.ts');

/** The parent's command line: an engine is the server's when the server started it. */
function parentCmdline(pid: string): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return cmdline(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '');
  } catch {
    return null;
  }
}

function group(pid: string): string | null {
  const cmd = cmdline(pid);
  if (cmd === null) return null;
  if (cmd.startsWith('postgres')) return 'postgres';
  if (cmd.includes('redis-server')) return 'redis';
  if (cmd.includes('bench/e2e')) return Number(pid) === process.pid ? 'bench client' : null;
  // the people of bench/engine's bot games, beside this bench's
  if (cmd.includes('bench/engine/')) return 'bot-game people';
  const role = /--role[= ](\w+)/.exec(cmd)?.[1];
  if (isServer(cmd)) return `server (${role ?? 'all'})`;
  if (cmd.includes('stockfish') && isServer(parentCmdline(pid) ?? '')) return 'engines';
  return null;
}

/** What a process group has used so far. */
export interface Usage {
  /** CPU seconds */
  readonly cpu: number;
  /**
   * read and write system calls (`syscr`, `syscw` of /proc/<pid>/io): the read and write
   * families, which Node and Redis use on their sockets; PostgreSQL's socket calls (recv,
   * send) are not among them, so its figures count its files only
   */
  readonly reads: number;
  readonly writes: number;
}

/** The machine's CPU time so far, in ticks: busy (user, nice, system, irq, softirq, steal) and all. */
export interface MachineTicks {
  readonly busy: number;
  readonly total: number;
}

/** A sample of every group's use and of the machine's. */
export interface UsageSample {
  readonly groups: ReadonlyMap<string, Usage>;
  readonly machine: MachineTicks | null;
}

const EMPTY: Usage = { cpu: 0, reads: 0, writes: 0 };

function ioOf(pid: string): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return { reads: Number(/^syscr: (\d+)/m.exec(io)?.[1] ?? 0), writes: Number(/^syscw: (\d+)/m.exec(io)?.[1] ?? 0) };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

function machineTicks(): MachineTicks | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return null;
  }
}

/** Each group's use so far, and the machine's. */
export function usageSample(): UsageSample {
  const groups = new Map<string, Usage>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const name = group(pid);
    if (name === null) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      const { reads, writes } = ioOf(pid);
      const was = groups.get(name) ?? EMPTY;
      groups.set(name, {
        cpu: was.cpu + ticks / TICKS_PER_SECOND,
        reads: was.reads + reads,
        writes: was.writes + writes,
      });
    } catch {
      // the process ended
    }
  }
  return { groups, machine: machineTicks() };
}

/**
 * CPU used between two samples, as ms per accepted move and share of the machine, with each
 * group's read and write calls per move; then how busy the machine was as a whole (the
 * kernel's network work and every other process included).
 */
export function cpuReport(
  before: UsageSample,
  after: UsageSample,
  moves: number,
  seconds: number,
  cores: number,
): string[] {
  const lines: string[] = [];
  let total = 0;
  const perMove = (n: number) => (n / Math.max(1, moves)).toFixed(2).padStart(6);
  const rows = [...after.groups.entries()]
    .map(([name, u]) => {
      const was = before.groups.get(name) ?? EMPTY;
      return [name, { cpu: u.cpu - was.cpu, reads: u.reads - was.reads, writes: u.writes - was.writes }] as const;
    })
    .filter(([, u]) => u.cpu > 0)
    .sort((a, b) => b[1].cpu - a[1].cpu);
  for (const [name, u] of rows) {
    total += u.cpu;
    lines.push(
      `  ${name.padEnd(20)} ${((u.cpu / seconds) * 100).toFixed(0).padStart(4)} % of a core   ${((u.cpu * 1000) / Math.max(1, moves)).toFixed(3)} ms CPU per move   reads ${perMove(u.reads)}  writes ${perMove(u.writes)} per move`,
    );
  }
  lines.push(
    `  ${'all of the above'.padEnd(20)} ${((total / seconds / cores) * 100).toFixed(0).padStart(4)} % of the machine (${cores} cores)`,
  );
  if (before.machine !== null && after.machine !== null && after.machine.total > before.machine.total) {
    const busy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
    lines.push(
      `  ${'the machine'.padEnd(20)} ${(busy * 100).toFixed(0).padStart(4)} % busy (/proc/stat: every process and the kernel)`,
    );
  }
  return lines;
}
