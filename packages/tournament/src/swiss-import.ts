/**
 * A TRF from another program read for `POST /api/swiss/{id}/trf`: the players in its pairing
 * numbers, each one's cells, the rounds played, its first colour and its forbidden pairs, or
 * the reason it cannot continue a Swiss here. Pure: the caller finds each named player's
 * account and decides `ImportSwiss`.
 */
import { defaultPoints, parseTrf, TrfError, tournamentForNextRound } from '@shogi/swiss';

/** One round's cell with the opponent by pairing number (zero-based; null: none). */
export interface TrfImportCell {
  readonly opponent: number | null;
  readonly color: 'w' | 'b' | null;
  readonly score: 'win' | 'draw' | 'loss';
  readonly played: boolean;
  readonly participated: boolean;
}

export interface TrfImport {
  readonly players: readonly { readonly name: string; readonly rating: number }[];
  readonly cells: readonly (readonly TrfImportCell[])[];
  readonly rounds: number;
  readonly initialColor: 'w' | 'b';
  readonly forbidden: readonly (readonly [number, number])[];
}

export type TrfImportRead =
  | { readonly ok: true; readonly value: TrfImport }
  | { readonly ok: false; readonly reason: string };

const fail = (reason: string): TrfImportRead => ({ ok: false, reason });

/** Reads `text` to continue a Swiss of `nbRounds` rounds. */
export function readSwissTrf(text: string, nbRounds: number): TrfImportRead {
  let file: ReturnType<typeof parseTrf>;
  let next: ReturnType<typeof tournamentForNextRound>;
  try {
    file = parseTrf(text);
    if (file.players.length === 0) return fail('the file has no player (001 lines)');
    if (file.expectedRounds !== 0 && file.expectedRounds !== nbRounds)
      return fail(`the file's XXR is ${file.expectedRounds} rounds; this Swiss has ${nbRounds}`);
    const def = defaultPoints();
    const pts = file.points;
    if (
      pts.win !== def.win ||
      pts.draw !== def.draw ||
      pts.loss !== def.loss ||
      pts.zeroPointBye !== def.zeroPointBye ||
      pts.forfeitLoss !== def.forfeitLoss ||
      pts.pairingAllocatedBye !== def.pairingAllocatedBye
    )
      return fail('this server scores 1, ½ and 0, and 1 for the pairing-allocated bye: the file counts otherwise');
    if (file.absences.length > 0 || file.forbiddenInRounds.length > 0)
      return fail('240 and 260 lines (absences, pairs apart for some rounds) are not taken: request byes in the cells');
    next = tournamentForNextRound({ ...file, expectedRounds: nbRounds });
  } catch (error) {
    if (error instanceof TrfError) return fail(error.message);
    throw error;
  }
  const names = new Set<string>();
  for (const p of file.players) {
    if (p.name === '') return fail(`player ${p.id + 1} has no name`);
    const key = p.name.toLowerCase();
    if (names.has(key)) return fail(`the name "${p.name}" is in the file twice`);
    names.add(key);
  }
  const rounds = next.playedRounds;
  const cells = file.players.map((p) => {
    const row: TrfImportCell[] = p.matches.map((m) => ({
      opponent: m.opponent === p.id ? null : m.opponent,
      color: m.color,
      score: m.score,
      played: m.played,
      participated: m.participated,
    }));
    while (row.length < rounds)
      row.push({ opponent: null, color: null, score: 'loss', played: false, participated: false });
    return row;
  });
  const forbidden: [number, number][] = [];
  for (const group of file.forbidden)
    for (const a of group) for (const b of group) if (a < b && b < file.players.length) forbidden.push([a, b]);
  return {
    ok: true,
    value: {
      players: file.players.map((p) => ({ name: p.name, rating: p.rating })),
      cells,
      rounds,
      initialColor: next.initialColor ?? 'w',
      forbidden,
    },
  };
}
