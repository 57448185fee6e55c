/** The engines the tests drive: Debian's Fairy-Stockfish, and a fake that misbehaves on request. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineConfig } from '../src/index.js';

export const FAIRY_STOCKFISH = '/usr/games/fairy-stockfish';
export const HAS_FAIRY_STOCKFISH = existsSync(FAIRY_STOCKFISH);
if (!HAS_FAIRY_STOCKFISH)
  console.warn(
    `packages/usi: the tests against a real engine are skipped: ${FAIRY_STOCKFISH} is missing (apt-get install fairy-stockfish)`,
  );

/** One thread and a small hash: the machine's cores are shared with the rest of the suite. */
export const fairyStockfish = (extra: Partial<EngineConfig> = {}): EngineConfig => ({
  path: FAIRY_STOCKFISH,
  options: { Threads: 1, Hash: 16 },
  ...extra,
});

const FAKE = fileURLToPath(new URL('./fixtures/fake-engine.mjs', import.meta.url));

export type FakeMode =
  | 'good'
  | 'silent'
  | 'garbage'
  | 'illegal'
  | 'malformed'
  | 'flood'
  | 'crash'
  | 'mute'
  | 'stubborn';

/** Short deadlines, so a misbehaving fake is caught within a fraction of a second. */
export const fake = (mode: FakeMode, extra: Partial<EngineConfig> = {}): EngineConfig => ({
  path: process.execPath,
  args: [FAKE, mode],
  timeouts: { handshakeMs: 3_000, readyMs: 3_000, marginMs: 100, stopGraceMs: 300, quitGraceMs: 300 },
  ...extra,
});

/** True while a process with this pid exists (a killed engine may take a moment to be reaped). */
export function running(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids whose command line contains `text` (Linux /proc; a reaped process has none). */
export function processesRunning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text)) pids.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

export async function until(condition: () => boolean, ms = 2_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
