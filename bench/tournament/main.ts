// Tournaments at scale (issue 45), each figure beside a reference measured in the same run.
//
//   npm run bench:tournament -- [--players 2000] [--runs 7] [--joins 20000] [--concurrency 50]
//     [--sockets 10000] [--games 10] [--only wave|joins|live]

import { parseArgs } from 'node:util';
import { benchJoins } from './joins.js';
import { benchLive } from './live.js';
import { benchWave } from './wave.js';

const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '7' },
    joins: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '50' },
    sockets: { type: 'string', default: '10000' },
    games: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});

console.log(`node ${process.version}, ${new Date().toISOString()}`);
if (values.only === undefined || values.only === 'wave') {
  console.log('1. a pairing wave');
  benchWave(Number(values.players), Number(values.runs));
}
if (values.only === undefined || values.only === 'joins') {
  console.log('2. joins through the public API');
  await benchJoins(Number(values.joins), Number(values.concurrency));
}
if (values.only === undefined || values.only === 'live') {
  console.log('3. live standings and waits');
  await benchLive(Number(values.sockets), Number(values.games));
}
