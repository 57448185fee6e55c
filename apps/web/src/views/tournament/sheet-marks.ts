/** Which of a player's sheet entries were berserk games: the sheet's order, the most recent first. */
import type { TournamentGame } from './types.js';

export function berserksBySheet(playerId: string, games: readonly TournamentGame[]): boolean[] {
  const marks: boolean[] = [];
  for (const g of games) {
    if (g.status !== 'finished') continue;
    if (g.players.sente.id === playerId) marks.push(g.players.sente.berserk);
    else if (g.players.gote.id === playerId) marks.push(g.players.gote.berserk);
  }
  return marks.reverse();
}
