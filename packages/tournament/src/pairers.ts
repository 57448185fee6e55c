import { arenaPairer } from './arena-pairer.js';
import { arrangedPairer, isArranged } from './arrangements.js';
import type { Pairer } from './pairer.js';
import { robinPairer } from './robin-pairer.js';
import { swissPairer } from './swiss-pairer.js';
import type { TournamentFormat } from './terms.js';

/** The pairer of each format. */
export const PAIRERS: Readonly<Record<TournamentFormat, Pairer>> = {
  arena: arenaPairer,
  // an arranged robin pairs each game at its agreed time, a robin of rounds round by round
  robin: { pair: (request) => (isArranged(request.state) ? arrangedPairer : robinPairer).pair(request) },
  swiss: swissPairer,
};
