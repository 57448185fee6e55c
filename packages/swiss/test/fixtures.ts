// The bbpPairings fixtures (tests/fixtures/swiss-dutch, copied from the shared fixtures): sixteen
// random events, every round paired by bbpPairings --dutch under the 2025 rules.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTrf, type TrfFile } from '../src/index.js';

export const FIXTURES = fileURLToPath(new URL('../../../tests/fixtures/swiss-dutch/', import.meta.url));

export interface Fixture {
  readonly name: string;
  readonly file: TrfFile;
  readonly rounds: number;
}

export function loadFixtures(): Fixture[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith('.trf'))
    .sort()
    .map((name) => {
      const config = readFileSync(`${FIXTURES}${name.replace(/\.trf$/, '.cfg')}`, 'utf8');
      const rounds = Number(/RoundsNumber=(\d+)/.exec(config)?.[1]);
      const file = parseTrf(readFileSync(`${FIXTURES}${name}`, 'utf8'));
      return { name, file: { ...file, expectedRounds: rounds }, rounds };
    });
}
