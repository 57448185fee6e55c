import crypto from 'node:crypto';
import { pairDutch, parseTrf, tournamentForNextRound } from '@shogi/swiss';
import { generateEvent } from './generate.js';

const players = Number(process.argv[2] ?? 250);
const t = tournamentForNextRound(parseTrf(generateEvent(players, 5, 9)));
const cpu = process.cpuUsage();
const start = performance.now();
const pairs = pairDutch(t);
const used = process.cpuUsage(cpu);
console.log(
  players,
  (performance.now() - start).toFixed(0),
  'ms wall',
  ((used.user + used.system) / 1000).toFixed(0),
  'ms cpu',
  crypto.createHash('sha1').update(JSON.stringify(pairs)).digest('hex'),
);
