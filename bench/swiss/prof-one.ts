import crypto from 'node:crypto';
import { pairDutch, parseTrf, tournamentForNextRound } from '@shogi/swiss';
import { generateEvent } from './generate.js';

const players = Number(process.argv[2] ?? 250);
const repeat = Number(process.argv[3] ?? 3);
const t = tournamentForNextRound(parseTrf(generateEvent(players, 5, 9)));
let best = Infinity;
let hash = '';
for (let r = 0; r < repeat; r++) {
  const cpu = process.cpuUsage();
  const pairs = pairDutch(t);
  const used = process.cpuUsage(cpu);
  best = Math.min(best, (used.user + used.system) / 1000);
  hash = crypto.createHash('sha1').update(JSON.stringify(pairs)).digest('hex').slice(0, 12);
}
console.log(players, 'players, best CPU', best.toFixed(0), 'ms', hash);
