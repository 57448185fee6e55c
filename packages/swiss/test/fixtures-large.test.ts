// The five larger fixtures (61 to 117 players), apart so that the two files run side by side.
import { describe } from 'vitest';
import { loadFixtures } from './fixtures.js';
import { replayFixtures } from './replay.js';

describe('bbpPairings fixtures, 61 to 117 players', () => {
  replayFixtures(loadFixtures().slice(11));
});
