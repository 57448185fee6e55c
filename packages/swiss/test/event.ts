// Builds small TRF events for the tests: one string of cells per player, in the TRF's own
// notation ("5 w 1", "0000 - U", "0000 - H"), cells separated by commas.

import { formatPlayerLine, parseTrf, type TrfFile } from '../src/index.js';

const POINTS: Record<string, number> = { '1': 10, '+': 10, W: 10, F: 10, U: 10, '=': 5, H: 5, D: 5 };

export function eventText(rows: readonly string[], options: { rounds: number; first?: 'white1' | 'black1' }): string {
  const lines = rows.map((row, index) => {
    const cells = row === '' ? [] : row.split(',').map((cell) => cell.trim());
    const points = cells.reduce((sum, cell) => sum + (POINTS[cell.slice(-1)] ?? 0), 0);
    const head = formatPlayerLine({
      id: index,
      name: `Player ${index + 1}`,
      rating: 2000 - index * 10,
      points,
      rank: index + 1,
      matches: [],
    });
    return head + cells.map((cell) => `  ${cell.padStart(8, ' ')}`).join('');
  });
  lines.push(`XXR ${options.rounds}`);
  if (options.first !== undefined) lines.push(`XXC ${options.first}`);
  return `${lines.join('\n')}\n`;
}

export const event = (rows: readonly string[], options: { rounds: number; first?: 'white1' | 'black1' }): TrfFile =>
  parseTrf(eventText(rows, options));
