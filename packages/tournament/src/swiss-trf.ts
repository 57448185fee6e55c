/**
 * A Swiss event as FIDE's Tournament Report File, the one text both the pairer and the export
 * (`GET /swiss/{id}.trf`, as lichess serves it) read: pairing numbers by rating, then the order
 * joined (a late entrant is inserted, which leaves everyone else's relative order, hence every
 * earlier round's pairing, as it was); sente written as white. Each round's cell: the game
 * (`+`/`-` for a forfeit), `U` for the pairing-allocated bye, `Z` for a round the player was not
 * in (joined later, or withdrawn). A Swiss continued from a TRF keeps that file's numbering, its
 * cells, its first colour and its forbidden pairs.
 */
import { absentMatch, formatTrf, type Match, type MatchScore } from '@shogi/swiss';
import type { ImportedCell } from './events.js';
import type { PlayerEntry, TournamentState } from './state.js';
import { currentSwissRound } from './swiss-rounds.js';

/** Points in tenths, as the TRF writes them (lichess's Swiss: win 1, draw ½, bye 1). */
const POINTS: Readonly<Record<MatchScore, number>> = { win: 10, draw: 5, loss: 0 };

/**
 * The players in pairing-number order: an imported TRF's players in its order, everyone else
 * inserted before the first player rated lower (by rating, then the order joined, when nothing
 * was imported).
 */
export function swissSeeds(state: TournamentState): PlayerEntry[] {
  const imported = state.swissImport?.order ?? [];
  const base = imported.map((id) => state.players.get(id)).filter((p): p is PlayerEntry => p !== undefined);
  const inBase = new Set(imported);
  const others = [...state.players.values()]
    .filter((p) => !inBase.has(p.id))
    .map((p, order) => ({ p, order }))
    .sort((a, b) => b.p.rating - a.p.rating || a.order - b.order)
    .map(({ p }) => p);
  const seeds: PlayerEntry[] = [];
  let i = 0;
  for (const p of others) {
    while (i < base.length && base[i]!.rating >= p.rating) seeds.push(base[i++]!);
    seeds.push(p);
  }
  return [...seeds, ...base.slice(i)];
}

const cellOf = (id: number, cell: ImportedCell, numberOf: ReadonlyMap<string, number>): Match => ({
  opponent: cell.opponent === null ? id : numberOf.get(cell.opponent)!,
  color: cell.color,
  score: cell.score,
  played: cell.played,
  participated: cell.participated,
});

function matchesOf(state: TournamentState, player: PlayerEntry, numberOf: ReadonlyMap<string, number>, rounds: number) {
  const id = numberOf.get(player.id)!;
  const cells: Match[] = Array.from({ length: rounds }, () => absentMatch(id));
  const imported = state.swissImport?.cells.get(player.id) ?? [];
  imported.forEach((cell, r) => {
    if (r < rounds) cells[r] = cellOf(id, cell, numberOf);
  });
  for (const [round, players] of state.byes)
    if (round <= rounds && players.includes(player.id))
      cells[round - 1] = { opponent: id, color: null, score: 'win', played: false, participated: true };
  for (const gameId of player.gameIds) {
    const p = state.pairings.get(gameId);
    if (p?.round === undefined || p.round > rounds || p.result === undefined) continue;
    const sente = p.sente === player.id;
    const won = p.result.winner === null ? null : (p.result.winner === 'sente') === sente;
    cells[p.round - 1] = {
      opponent: numberOf.get(sente ? p.gote : p.sente)!,
      color: sente ? 'w' : 'b',
      score: won === null ? 'draw' : won ? 'win' : 'loss',
      played: !p.result.forfeit,
      participated: true,
    };
  }
  return cells;
}

export interface SwissTrf {
  readonly text: string;
  /** The player id of each pairing number (zero-based). */
  readonly ids: readonly string[];
}

/**
 * The event's TRF with its scored rounds; `nextRound`: also the next round's cell of each
 * player who will not be paired in it (withdrawn: `Z`; a bye an imported file requested), as
 * the pairing engine reads a requested absence.
 */
export function swissTrf(state: TournamentState, options: { nextRound?: boolean } = {}): SwissTrf {
  const seeds = swissSeeds(state);
  const numberOf = new Map(seeds.map((p, i) => [p.id, i]));
  const played = currentSwissRound(state) - (state.playing.size > 0 ? 1 : 0);
  const records = seeds.map((p, i) => {
    const matches = matchesOf(state, p, numberOf, played);
    if (options.nextRound === true) {
      const requested = state.swissImport?.cells.get(p.id)?.[played];
      if (requested !== undefined && !requested.participated) matches.push(cellOf(i, requested, numberOf));
      else if (p.paused) matches.push(absentMatch(i));
    }
    const points = matches.reduce(
      (sum, m, r) => sum + (m.participated || (r < played && m.score !== 'loss') ? POINTS[m.score] : 0),
      0,
    );
    return { id: i, name: p.name, rating: p.rating, points, matches };
  });
  const byPoints = [...records].sort((a, b) => b.points - a.points || a.id - b.id);
  const rankOf = new Map(byPoints.map((r, i) => [r.id, i + 1]));
  // lichess names the players of a forbidden pairing by username: an id or a name (any case) here
  const byName = new Map(seeds.map((p, i) => [p.name.toLowerCase(), i]));
  const numberNamed = (who: string) => numberOf.get(who) ?? byName.get(who.toLowerCase());
  const forbidden = [...(state.terms?.swiss?.forbiddenPairings ?? []), ...(state.swissImport?.forbidden ?? [])]
    .map(([a, b]) => [numberNamed(a), numberNamed(b)])
    .filter((pair): pair is number[] => pair.every((n) => n !== undefined));
  const text = formatTrf(
    {
      name: state.terms?.name ?? '',
      expectedRounds: state.terms?.swiss?.nbRounds ?? played,
      initialColor: state.swissImport?.initialColor ?? 'w',
      forbidden,
      players: records.map((r) => ({ ...r, rank: rankOf.get(r.id)! })),
    },
    '\n',
  );
  return { text, ids: seeds.map((p) => p.id) };
}
