// Pairs one round of a synthetic event by the Dutch system, beside two references measured in
// the same run: reading and writing the event's TRF, and one maximum-weight matching over all
// its players (the first of the many the Dutch system asks for).
//
//   npm run bench:swiss -- [--players 250,4000] [--rounds 5] [--total 9] [--cap 120]
//
// Each size runs in its own child process; a pairing that has not finished within --cap seconds
// is reported as such.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTrf, MatchingComputer, pairDutch, parseTrf, playersToPair, tournamentForNextRound } from '@shogi/swiss';
import { generateEvent } from './generate.js';

const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '250,4000' },
    rounds: { type: 'string', default: '5' },
    total: { type: 'string', default: '9' },
    cap: { type: 'string', default: '120' },
    child: { type: 'string' },
  },
});

const ms = (start: number): string => `${(performance.now() - start).toFixed(1)} ms`;

function runOne(players: number, rounds: number, total: number): void {
  const text = generateEvent(players, rounds, total);
  let start = performance.now();
  const t = tournamentForNextRound(parseTrf(text));
  formatTrf({
    expectedRounds: total,
    initialColor: t.initialColor,
    players: t.players.map((p) => ({ ...p, points: p.score, rank: p.rankIndex + 1 })),
  });
  console.log(`${players} players  read+write TRF          ${ms(start)}`);

  // One matching over every player, weighted by rank distance where a pair is allowed.
  start = performance.now();
  const sorted = playersToPair(t);
  const mc = new MatchingComputer(sorted.length);
  const seen = sorted.map((p) => new Set(p.matches.filter((m) => m.played).map((m) => m.opponent)));
  for (let a = 0; a < sorted.length; a++) {
    for (let b = 0; b < a; b++) {
      if (!seen[a]!.has(sorted[b]!.id)) mc.setEdgeWeight(a, b, (1n << 200n) + BigInt(sorted.length - (a - b)));
    }
  }
  mc.computeMatching();
  console.log(`${players} players  one matching (reference) ${ms(start)}`);

  start = performance.now();
  const cpu = process.cpuUsage();
  const pairs = pairDutch(t);
  const cpuMs = (process.cpuUsage(cpu).user / 1000).toFixed(0);
  console.log(
    `${players} players  Dutch round             ${ms(start)}  (${cpuMs} ms CPU; ${pairs.length} pairs and byes)`,
  );
}

if (values.child !== undefined) {
  const [players, rounds, total] = values.child.split(',').map(Number) as [number, number, number];
  runOne(players, rounds, total);
} else {
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  for (const players of values.players.split(',').map(Number)) {
    const r = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=3072',
        '--import',
        'tsx',
        '--conditions=@shogi/source',
        fileURLToPath(import.meta.url),
        '--child',
        `${players},${values.rounds},${values.total}`,
      ],
      { encoding: 'utf8', timeout: Number(values.cap) * 1000, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    process.stdout.write(r.stdout ?? '');
    if (r.error !== undefined || r.status !== 0) {
      console.log(`${players} players  stopped: not finished within ${values.cap} s`);
    }
  }
}
