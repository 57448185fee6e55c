import { PositionHistory, parseSfen, START_SFEN } from '@shogi/rules';
import type { UsiScore } from '@shogi/usi';
import { describe, expect, it } from 'vitest';
import { type MatchSearchRequest, playMatch, RESIGNATION } from '../src/index.js';
import { move, randomMover, scripted } from './movers.js';

const A = { name: 'a' };
const B = { name: 'b' };
/** Gote's king on 5a, a sente pawn on 5c, a gold in sente's hand: G*5b mates. */
const MATE_IN_ONE = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';
/** Two kings alone: walking them out and back repeats the start. */
const KINGS = '4k4/9/9/9/9/9/9/9/4K4 b - 1';
const SHUFFLE = ['5i4i', '5a4a', '4i5i', '4a5a'];
/** Sente to move can declare impasse: 28 points, ten pieces in the camp, the king there. */
const IMPASSE = 'RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 b - 1';

function replay(sfen: string, moves: readonly string[]): PositionHistory {
  const start = parseSfen(sfen);
  if (!start.ok) throw new Error('bad SFEN');
  const game = new PositionHistory(start.value);
  for (const m of moves) expect(game.playUsi(m).ok).toBe(true);
  return game;
}

describe('playMatch with random movers', () => {
  it('plays legal moves to an ending the rules confirm, the same game for the same seed', async () => {
    const play = (seed: number) => playMatch({ sente: A, gote: B, search: randomMover(seed), maxPlies: 600 });
    const result = await play(7);
    expect(result).toMatchObject({ sente: 'a', gote: 'b', sfen: START_SFEN });
    expect(result.moves.length).toBeGreaterThan(0);
    const game = replay(START_SFEN, result.moves);
    if (result.ending === 'max_plies') expect(result.moves).toHaveLength(600);
    else expect(game.outcome.status).toBe(result.ending);
    expect(await play(7)).toEqual(result);
  });

  it('ends many games, each as the rules say', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const result = await playMatch({ sente: A, gote: B, search: randomMover(seed), maxPlies: 300 });
      const game = replay(START_SFEN, result.moves);
      const status = result.ending === 'max_plies' ? 'ongoing' : result.ending;
      expect(game.outcome.status).toBe(status);
      if (result.ending === 'checkmate') expect(result.winner).toBe(game.position.side === 0 ? 'gote' : 'sente');
    }
  });

  it('stops at maxPlies with a draw', async () => {
    const result = await playMatch({ sente: A, gote: B, search: randomMover(3), maxPlies: 10 });
    expect(result).toMatchObject({ winner: null, ending: 'max_plies' });
    expect(result.moves).toHaveLength(10);
    expect(await playMatch({ sente: A, gote: B, search: randomMover(3), maxPlies: 0 })).toMatchObject({
      ending: 'max_plies',
      moves: [],
    });
  });
});

describe('playMatch endings', () => {
  it('checkmate', async () => {
    const result = await playMatch({
      sente: A,
      gote: B,
      search: scripted([move('G*5b')]),
      maxPlies: 10,
      sfen: MATE_IN_ONE,
    });
    expect(result).toEqual({
      sente: 'a',
      gote: 'b',
      winner: 'sente',
      ending: 'checkmate',
      sfen: MATE_IN_ONE,
      moves: ['G*5b'],
    });
  });

  it('repetition (sennichite): a draw on the fourth occurrence', async () => {
    const search = scripted([...SHUFFLE, ...SHUFFLE, ...SHUFFLE].map(move));
    const result = await playMatch({ sente: A, gote: B, search, maxPlies: 100, sfen: KINGS });
    expect(result).toMatchObject({ winner: null, ending: 'sennichite' });
    expect(result.moves).toHaveLength(12);
  });

  it('impasse: the side to move declares as soon as the rules grant it, without searching', async () => {
    const result = await playMatch({ sente: A, gote: B, search: scripted([]), maxPlies: 10, sfen: IMPASSE });
    expect(result).toMatchObject({ winner: 'sente', ending: 'impasse', moves: [] });
  });

  it("an engine's declaration the rules do not grant loses", async () => {
    const search = scripted([{ bestmove: { kind: 'win' } }]);
    const result = await playMatch({ sente: A, gote: B, search, maxPlies: 10 });
    expect(result).toMatchObject({ winner: 'gote', ending: 'impasse', moves: [] });
  });

  it('resignation', async () => {
    const search = scripted([move('7g7f'), move('3c3d'), { bestmove: { kind: 'resign' } }]);
    const result = await playMatch({ sente: A, gote: B, search, maxPlies: 10 });
    expect(result).toMatchObject({ winner: 'gote', ending: 'resignation', moves: ['7g7f', '3c3d'] });
  });

  it('an illegal move loses, and is not recorded', async () => {
    const search = scripted([move('7g7f'), move('8b8h')]);
    const result = await playMatch({ sente: A, gote: B, search, maxPlies: 10 });
    expect(result).toEqual({
      sente: 'a',
      gote: 'b',
      winner: 'sente',
      ending: 'illegal_move',
      sfen: START_SFEN,
      moves: ['7g7f'],
      detail: '8b8h: illegal_piece_move',
    });
  });
});

describe('playMatch: the bots resign by their level', () => {
  const mated: UsiScore = { kind: 'mate', plies: 3, winning: false };
  const lost = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...move(SHUFFLE[i % 4] as string), score: mated }));

  it('a level-8 bot resigns, instead of moving, once four of its searches in a row find the game lost', async () => {
    const search = scripted(lost(20));
    const result = await playMatch({ sente: { name: 'bot', level: 8 }, gote: B, search, maxPlies: 20, sfen: KINGS });
    expect(result).toMatchObject({ winner: 'gote', ending: 'resignation' });
    // the bot's own searches are every other one: it resigns instead of its last move
    expect(result.moves).toHaveLength(2 * (RESIGNATION.searches - 1));
  });

  it('a level-1 bot and a player without a level play on', async () => {
    for (const sente of [{ name: 'bot', level: 1 as const }, A]) {
      const result = await playMatch({ sente, gote: B, search: scripted(lost(6)), maxPlies: 6, sfen: KINGS });
      expect(result).toMatchObject({ winner: null, ending: 'max_plies' });
    }
  });
});

describe('playMatch: what the search is asked', () => {
  it('the player and side to move, the start and moves since, the position now and the ply', async () => {
    const requests: MatchSearchRequest[] = [];
    const moves = scripted([move('7g7f'), move('3c3d')]);
    const search = (request: MatchSearchRequest) => {
      requests.push(request);
      return moves(request);
    };
    await playMatch({ sente: A, gote: B, maxPlies: 2, search });
    expect(requests).toEqual([
      { player: A, side: 'sente', position: { sfen: START_SFEN, moves: [] }, sfen: START_SFEN, ply: 0 },
      {
        player: B,
        side: 'gote',
        position: { sfen: START_SFEN, moves: ['7g7f'] },
        sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2',
        ply: 1,
      },
    ]);
  });

  it('rejects when the search does, and on a bad configuration', async () => {
    const failing = async () => {
      throw new Error('engine crashed');
    };
    await expect(playMatch({ sente: A, gote: B, search: failing, maxPlies: 10 })).rejects.toThrow('engine crashed');
    await expect(playMatch({ sente: A, gote: B, search: failing, maxPlies: -1 })).rejects.toThrow(RangeError);
    await expect(playMatch({ sente: A, gote: B, search: failing, maxPlies: 10, sfen: 'nonsense' })).rejects.toThrow(
      RangeError,
    );
  });
});
