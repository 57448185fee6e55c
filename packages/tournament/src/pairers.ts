import { arenaPairer } from './arena-pairer.js';
import type { Pairer } from './pairer.js';
import { robinPairer } from './robin-pairer.js';
import { swissPairer } from './swiss-pairer.js';
import type { TournamentFormat } from './terms.js';

/** The pairer of each format. */
export const PAIRERS: Readonly<Record<TournamentFormat, Pairer>> = {
  arena: arenaPairer,
  robin: robinPairer,
  swiss: swissPairer,
};
