/**
 * CPU time by process group over the measured window, from /proc (Linux only): which of
 * PostgreSQL, Redis, the gateway, the worker, the engine role's engines and this bench pays for a move.
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

/** CPU seconds so far, by group. */
export function cpuByGroup(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const name = group(pid);
    if (name === null) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
      out.set(name, (out.get(name) ?? 0) + ticks / TICKS_PER_SECOND);
    } catch {
      // the process ended
    }
  }
  return out;
}

/** CPU used between two samples, as ms per accepted move and share of the machine. */
export function cpuReport(
  before: Map<string, number>,
  after: Map<string, number>,
  moves: number,
  seconds: number,
  cores: number,
): string[] {
  const lines: string[] = [];
  let total = 0;
  const rows = [...after.entries()]
    .map(([name, t]) => [name, t - (before.get(name) ?? 0)] as const)
    .filter(([, t]) => t > 0)
    .sort((a, b) => b[1] - a[1]);
  for (const [name, t] of rows) {
    total += t;
    lines.push(
      `  ${name.padEnd(20)} ${((t / seconds) * 100).toFixed(0).padStart(4)} % of a core   ${((t * 1000) / Math.max(1, moves)).toFixed(3)} ms CPU per move`,
    );
  }
  lines.push(
    `  ${'all of the above'.padEnd(20)} ${((total / seconds / cores) * 100).toFixed(0).padStart(4)} % of the machine (${cores} cores)`,
  );
  return lines;
}
