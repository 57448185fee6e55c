/** A job's position as the rules see it; null when the job's data do not make one. */
import { PositionHistory, parseSfen, type Ruleset } from '@shogi/rules';

export function replayPosition(
  initialSfen: string,
  ruleset: Ruleset,
  moves: readonly string[],
): PositionHistory | null {
  const parsed = parseSfen(initialSfen);
  if (!parsed.ok) return null;
  const game = new PositionHistory(parsed.value, ruleset);
  for (const usi of moves) if (!game.playUsi(usi).ok) return null;
  return game;
}
