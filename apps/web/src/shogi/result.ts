/** The words for how a game ended, for the result banner. */
const REASONS: Readonly<Record<string, string>> = {
  checkmate: 'checkmate',
  resignation: 'resignation',
  timeout: 'time out',
  sennichite: 'repetition (sennichite)',
  perpetual_check: 'perpetual check',
  stalemate: 'stalemate',
  impasse: 'impasse declaration (jishogi)',
  abort: 'abort',
  // the CSA protocol's games: an illegal move loses, and a move limit draws
  illegal_move: 'illegal move',
  max_moves: 'move limit',
};

export const reasonText = (reason: string): string => REASONS[reason] ?? reason.replaceAll('_', ' ');

export function resultText(
  result: { winner: 'sente' | 'gote' | null; reason: string },
  names: { sente: string; gote: string },
): string {
  // an aborted game has no result at all: it is not a draw (lishogi writes "Game aborted")
  if (result.reason === 'abort') return 'Game aborted';
  if (result.reason === 'draw') return 'Draw';
  if (result.winner === null) return `Draw by ${reasonText(result.reason)}`;
  const mark = result.winner === 'sente' ? '☗' : '☖';
  const side = result.winner === 'sente' ? 'Sente' : 'Gote';
  return `${mark} ${side} (${names[result.winner]}) wins by ${reasonText(result.reason)}`;
}
