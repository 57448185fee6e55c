import { expect, it } from 'vitest';
import { checkTournament } from '../src/index.js';
import type { Fixture } from './fixtures.js';

/** One test per fixture: every round paired again equals bbpPairings' round (pairs, colours, bye). */
export function replayFixtures(fixtures: readonly Fixture[]): void {
  for (const fixture of fixtures) {
    it(`${fixture.name}: ${fixture.file.players.length} players, every round as bbpPairings paired it`, () => {
      const checks = checkTournament(fixture.file);
      expect(checks.length).toBe(fixture.rounds);
      expect(checks.filter((c) => !c.matches)).toEqual([]);
    }, 600_000);
  }
}
