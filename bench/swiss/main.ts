// Pairs one round of a synthetic event by the Dutch system, beside two references measured in
// the same run: reading and writing the event's TRF, and one maximum-weight matching over all
// its players solved from scratch (the Dutch system asks for a matching per decision, solved
// incrementally).
//
//   npm run bench:swiss -- [--players 250,4000] [--rounds 5] [--total 9] [--cap 120] [--matching-max 1000]
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
    'matching-max': { type: 'string', default: '1000' },
    child: { type: 'string' },
  },
});

function runOne(players: number, rounds: number, total: number, matchingMax: number): void {
  const text = generateEvent(players, rounds, total);
  let start = performance.now();
  const t = tournamentForNextRound(parseTrf(text));
  formatTrf({
    expectedRounds: total,
    initialColor: t.initialColor,
    players: t.players.map((p) => ({ ...p, points: p.score, rank: p.rankIndex + 1 })),
  });
  const trfMs = performance.now() - start;
  console.log(`${players} players  read+write TRF          ${trfMs.toFixed(1)} ms`);

  start = performance.now();
  const cpu = process.cpuUsage();
  const pairs = pairDutch(t);
  const cpuMs = (process.cpuUsage(cpu).user / 1000).toFixed(0);
  const roundMs = performance.now() - start;
  console.log(
    `${players} players  Dutch round             ${roundMs.toFixed(1)} ms  (${cpuMs} ms CPU; ${pairs.length} pairs and byes; ` +
      `${(roundMs / trfMs).toFixed(0)} × the TRF)`,
  );

  // One matching over every player from scratch, weighted by rank distance where a pair is
  // allowed: what the round would cost if each decision solved afresh (O(n³), skipped above
  // --matching-max players).
  if (players > matchingMax) return;
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
  const matchingMs = performance.now() - start;
  console.log(
    `${players} players  one matching (reference) ${matchingMs.toFixed(1)} ms  (the round is ${(roundMs / matchingMs).toFixed(2)} × it)`,
  );
}

if (values.child !== undefined) {
  const [players, rounds, total, matchingMax] = values.child.split(',').map(Number) as [number, number, number, number];
  runOne(players, rounds, total, matchingMax);
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
        `${players},${values.rounds},${values.total},${values['matching-max']}`,
      ],
      { encoding: 'utf8', timeout: Number(values.cap) * 1000, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    process.stdout.write(r.stdout ?? '');
    if (r.error !== undefined || r.status !== 0) {
      console.log(`${players} players  stopped: not finished within ${values.cap} s`);
    }
  }
}
