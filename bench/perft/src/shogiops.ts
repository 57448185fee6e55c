/**
 * shogiops (GPL-3.0-or-later; used by this benchmark only, never by product code).
 * perft: legal destinations from allMoveDests / allDropDests (one context per node), both
 * promotion choices via its own pieceCanPromote / pieceForcePromote, then clone + play
 * (shogiops has no undo), as in its own debug.perft.
 */
import { type MoveOrDrop, parsePieceName, parseUsi, type Shogi, sfen as sfenText, variantUtil } from 'shogiops';
import type { Library } from './adapter.js';

const canPromote = variantUtil.pieceCanPromote('standard');
const mustPromote = variantUtil.pieceForcePromote('standard');

function load(sfen: string): Shogi {
  const parsed = sfenText.parseSfen('standard', sfen, false);
  if (parsed.isErr) throw new Error(`shogiops rejects SFEN ${sfen}: ${parsed.error.message}`);
  return parsed.value;
}

function perft(pos: Shogi, depth: number): number {
  let nodes = 0;
  const visit = (md: MoveOrDrop): void => {
    const child = pos.clone();
    child.play(md);
    nodes += depth === 1 ? 1 : perft(child, depth - 1);
  };
  const ctx = pos.ctx();
  for (const [from, dests] of pos.allMoveDests(ctx)) {
    const piece = pos.board.get(from);
    if (!piece) continue;
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) visit({ from, to, promotion: true });
      if (!mustPromote(piece, to)) visit({ from, to, promotion: false });
    }
  }
  for (const [name, dests] of pos.allDropDests(ctx)) {
    const role = parsePieceName(name).role;
    for (const to of dests) visit({ role, to });
  }
  return nodes;
}

export const shogiops: Library = {
  name: 'shogiops',
  perft(sfen, depth) {
    const pos = load(sfen);
    return () => (depth === 0 ? 1 : perft(pos, depth));
  },
  replays: [
    {
      name: 'shogiops',
      calls: 'parseUsi + isLegal + play',
      prepare(sfen, moves) {
        const pos = load(sfen);
        return () => {
          let played = 0;
          for (const usi of moves) {
            const md = parseUsi(usi);
            if (!md || !pos.isLegal(md)) break;
            pos.play(md);
            played++;
          }
          return played;
        };
      },
    },
  ],
};
