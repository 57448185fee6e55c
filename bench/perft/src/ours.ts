/** Our engine, @shogi/rules, through its public API. */
import { moveIllegality, type Position, PositionHistory, parseSfen, parseUsi, perft, perftBulk } from '@shogi/rules';
import type { Library } from './adapter.js';

export function load(sfen: string): Position {
  const parsed = parseSfen(sfen);
  if (!parsed.ok) throw new Error(`@shogi/rules rejects SFEN ${sfen}`);
  return parsed.value;
}

/** perft that counts the last ply without playing it: reported separately, not compared. */
export function bulk(sfen: string, depth: number): () => number {
  const pos = load(sfen);
  return () => perftBulk(pos, depth);
}

export const ours: Library = {
  name: 'ours',
  perft(sfen, depth) {
    const pos = load(sfen);
    return () => perft(pos, depth);
  },
  replays: [
    {
      name: 'ours',
      calls: 'parseUsi + moveIllegality + makeMove',
      prepare(sfen, moves) {
        const pos = load(sfen);
        return () => {
          let played = 0;
          for (const usi of moves) {
            const m = parseUsi(usi);
            if (m < 0 || moveIllegality(pos, m) !== null) break;
            pos.makeMove(m);
            played++;
          }
          return played;
        };
      },
    },
    {
      // The server's real path: also records history (repetition) and detects mate/stalemate.
      name: 'ours PositionHistory.playUsi',
      calls: 'ours + history (repetition) + mate/stalemate test after each move',
      prepare(sfen, moves) {
        const game = new PositionHistory(load(sfen), 'default');
        return () => {
          let played = 0;
          for (const usi of moves) {
            if (!game.playUsi(usi).ok) break;
            played++;
          }
          return played;
        };
      },
    },
  ],
};
