/**
 * The demo bots' choice of move: random among the legal moves, preferring a mate, then
 * captures and checks, so that games end instead of wandering for a thousand plies.
 * The position history decides perpetual check, so a candidate is tried on it.
 */
import { formatUsi, legalMoves, type Move, moveTo, type PositionHistory } from '@shogi/rules';

export type Random = () => number;

/** A small seeded PRNG (mulberry32), so a demo can be replayed from its seed. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The USI of the bot's move, or null when it has none. `game` is a scratch copy of the
 * history (the caller replays it): a candidate is played on it to let the history
 * judge perpetual check, and a refused `play` leaves it unchanged.
 */
export function chooseMove(game: PositionHistory, random: Random): string | null {
  if (game.outcome.status !== 'ongoing') return null;
  const pos = game.position;
  const moves = legalMoves(pos);
  const mates: Move[] = [];
  const forcing: Move[] = [];
  for (const m of moves) {
    const capture = pos.board[moveTo(m)] !== 0;
    pos.makeMove(m);
    const check = pos.inCheck();
    const mate = check && legalMoves(pos).length === 0;
    pos.unmakeMove(m);
    if (mate) mates.push(m);
    else if (capture || check) forcing.push(m);
  }
  // forcing moves 70% of the time: enough to end games, random enough to vary them
  const rest = shuffle(moves, random);
  const ordered = [...shuffle(mates, random), ...(random() < 0.7 ? [...shuffle(forcing, random), ...rest] : rest)];
  for (const m of ordered) if (game.play(m).ok) return formatUsi(m);
  return null;
}

function shuffle<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
