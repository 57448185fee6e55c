// A synthetic Swiss event at any size: N players rated 1000-2800, R rounds played with results
// drawn from a seeded generator, each round paired greedily within the score order (no rematch,
// colours by preference). Not Dutch pairings: only a realistic history to pair the next round of.

import { type Color, formatTrf, type Match, type TrfPlayerRecord } from '@shogi/swiss';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateEvent(players: number, playedRounds: number, totalRounds: number, seed = 1): string {
  const random = mulberry32(seed);
  const ratings = Array.from({ length: players }, () => 1000 + Math.floor(random() * 1800)).sort((a, b) => b - a);
  const matches: Match[][] = ratings.map(() => []);
  const points = new Array<number>(players).fill(0);
  const met = ratings.map(() => new Set<number>());
  const byes = new Set<number>();
  const lastColors = (id: number): Color[] => matches[id]!.filter((m) => m.played).map((m) => m.color);
  for (let round = 0; round < playedRounds; round++) {
    const order = ratings.map((_, id) => id).sort((a, b) => points[b]! - points[a]! || a - b);
    const paired = new Set<number>();
    if (order.length % 2 === 1) {
      const bye = [...order].reverse().find((id) => !byes.has(id))!;
      byes.add(bye);
      paired.add(bye);
      matches[bye]!.push({ opponent: bye, color: null, score: 'win', played: false, participated: true });
      points[bye]! += 10;
    }
    for (const a of order) {
      if (paired.has(a)) continue;
      const b = order.find((id) => id !== a && !paired.has(id) && !met[a]!.has(id));
      if (b === undefined) throw new Error('the greedy pairing got stuck: use more players or fewer rounds');
      paired.add(a);
      paired.add(b);
      met[a]!.add(b);
      met[b]!.add(a);
      const whites = (id: number): number => lastColors(id).filter((c) => c === 'w').length;
      const aWhite = whites(a) < whites(b) || (whites(a) === whites(b) && random() < 0.5);
      const [white, black] = aWhite ? [a, b] : [b, a];
      const r = random();
      const whiteScore = r < 0.45 ? 'win' : r < 0.55 ? 'draw' : 'loss';
      const blackScore = whiteScore === 'win' ? 'loss' : whiteScore === 'loss' ? 'win' : 'draw';
      matches[white]!.push({ opponent: black, color: 'w', score: whiteScore, played: true, participated: true });
      matches[black]!.push({ opponent: white, color: 'b', score: blackScore, played: true, participated: true });
      points[white]! += whiteScore === 'win' ? 10 : whiteScore === 'draw' ? 5 : 0;
      points[black]! += blackScore === 'win' ? 10 : blackScore === 'draw' ? 5 : 0;
    }
  }
  const records: TrfPlayerRecord[] = ratings.map((rating, id) => ({
    id,
    name: `Player ${id + 1}`,
    rating,
    points: points[id]!,
    rank: id + 1,
    matches: matches[id]!,
  }));
  return formatTrf({ name: `Bench ${players}`, expectedRounds: totalRounds, initialColor: 'w', players: records });
}
