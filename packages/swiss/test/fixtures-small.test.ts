// The eleven smaller fixtures (9 to 52 players); the five larger ones are in fixtures-large.test.ts.
import { describe } from 'vitest';
import { loadFixtures } from './fixtures.js';
import { replayFixtures } from './replay.js';

describe('bbpPairings fixtures, 9 to 52 players', () => {
  replayFixtures(loadFixtures().slice(0, 11));
});
