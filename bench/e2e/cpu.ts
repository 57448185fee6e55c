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

/** What a process, or a group of them, has used. */
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

/**
 * The machine's CPU time so far, in ticks: busy (user, nice, system, irq, softirq, steal) and
 * all; and its context switches so far (every process's, the kernel's too).
 */
export interface MachineTicks {
  readonly busy: number;
  readonly total: number;
  readonly switches: number;
}

/**
 * A sample of every process's use, by pid (a group's processes come and go: PostgreSQL's
 * backends, a restarted server), and of the machine's.
 */
export interface UsageSample {
  readonly processes: ReadonlyMap<string, { readonly group: string; readonly usage: Usage }>;
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
    const stat = readFileSync('/proc/stat', 'utf8');
    const line = stat.split('\n', 1)[0] ?? '';
    const switches = Number(/^ctxt (\d+)/m.exec(stat)?.[1] ?? 0);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait, switches };
  } catch {
    return null;
  }
}

/** Each process's use so far, and the machine's. */
export function usageSample(): UsageSample {
  const processes = new Map<string, { group: string; usage: Usage }>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const name = group(pid);
    if (name === null) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      processes.set(pid, { group: name, usage: { cpu: ticks / TICKS_PER_SECOND, ...ioOf(pid) } });
    } catch {
      // the process ended
    }
  }
  return { processes, machine: machineTicks() };
}

/** A group's use over a window, per accepted move. */
export interface GroupPerMove {
  readonly group: string;
  /** the group's share of one core over the window */
  readonly coreShare: number;
  readonly cpuMs: number;
  readonly reads: number;
  readonly writes: number;
}

/** What the window between two samples cost: each group's use per move, busiest first, and the machine's busy share. */
export interface WindowUsage {
  readonly groups: readonly GroupPerMove[];
  /** the machine's busy share (null where /proc/stat could not be read) */
  readonly machineBusy: number | null;
  /** the machine's context switches per move (null where /proc/stat could not be read) */
  readonly switchesPerMove: number | null;
}

export function usageOver(before: UsageSample, after: UsageSample, moves: number, seconds: number): WindowUsage {
  const per = (n: number) => n / Math.max(1, moves);
  // what each process used in the window: all of it for one that started in it; nothing
  // for one that ended in it (its counts went with it)
  const used = new Map<string, Usage>();
  for (const [pid, { group, usage }] of after.processes) {
    const was = before.processes.get(pid)?.usage ?? EMPTY;
    const sum = used.get(group) ?? EMPTY;
    used.set(group, {
      cpu: sum.cpu + usage.cpu - was.cpu,
      reads: sum.reads + usage.reads - was.reads,
      writes: sum.writes + usage.writes - was.writes,
    });
  }
  const groups = [...used]
    .map(
      ([group, u]): GroupPerMove => ({
        group,
        coreShare: u.cpu / seconds,
        cpuMs: per(u.cpu * 1000),
        reads: per(u.reads),
        writes: per(u.writes),
      }),
    )
    .filter((g) => g.cpuMs > 0)
    .sort((a, b) => b.cpuMs - a.cpuMs);
  const { machine: m0 } = before;
  const { machine: m1 } = after;
  const machineBusy =
    m0 !== null && m1 !== null && m1.total > m0.total ? (m1.busy - m0.busy) / (m1.total - m0.total) : null;
  const switchesPerMove = m0 !== null && m1 !== null ? per(m1.switches - m0.switches) : null;
  return { groups, machineBusy, switchesPerMove };
}

/**
 * The window's use as printed: each group's share of a core, CPU per accepted move and read and
 * write calls per move; the groups' share of the machine; then how busy the machine was as a
 * whole (the kernel's network work and every other process included).
 */
export function cpuReport(usage: WindowUsage, cores: number): string[] {
  const lines = usage.groups.map(
    (g) =>
      `  ${g.group.padEnd(20)} ${(g.coreShare * 100).toFixed(0).padStart(4)} % of a core   ${g.cpuMs.toFixed(3)} ms CPU per move   reads ${g.reads.toFixed(2).padStart(6)}  writes ${g.writes.toFixed(2).padStart(6)} per move`,
  );
  const total = usage.groups.reduce((n, g) => n + g.coreShare, 0);
  lines.push(
    `  ${'all of the above'.padEnd(20)} ${((total / cores) * 100).toFixed(0).padStart(4)} % of the machine (${cores} cores)`,
  );
  if (usage.machineBusy !== null)
    lines.push(
      `  ${'the machine'.padEnd(20)} ${(usage.machineBusy * 100).toFixed(0).padStart(4)} % busy (/proc/stat: every process and the kernel)${
        usage.switchesPerMove === null ? '' : `, ${usage.switchesPerMove.toFixed(1)} context switches per move`
      }`,
    );
  return lines;
}
