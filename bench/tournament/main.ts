// Tournaments at scale (issue 45), each figure beside a reference measured in the same run.
//
//   npm run bench:tournament -- [--players 2000] [--runs 7]

import { parseArgs } from 'node:util';
import { benchWave } from './wave.js';

const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '7' },
  },
});

console.log(`node ${process.version}, ${new Date().toISOString()}`);
console.log('1. a pairing wave');
benchWave(Number(values.players), Number(values.runs));
