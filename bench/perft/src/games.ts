/** Real games for the move-validation bench: CSA files, converted to USI with tsshogi (bench only). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importCSA, Move } from 'tsshogi';

export interface GameMoves {
  file: string;
  sfen: string;
  moves: string[];
}

export function loadCsaGames(dir: string): GameMoves[] {
  const games: GameMoves[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.csa'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '');
    const record = importCSA(text);
    if (record instanceof Error) throw new Error(`${file}: ${record.message}`);
    const moves: string[] = [];
    for (const node of record.moves) if (node.move instanceof Move) moves.push(node.move.usi);
    games.push({ file, sfen: record.initialPosition.sfen, moves });
  }
  return games;
}
