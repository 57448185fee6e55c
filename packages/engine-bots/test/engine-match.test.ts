import { existsSync } from 'node:fs';
import { UsiEngine } from '@shogi/usi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTally, levelOptions, type MatchPlayer, type MatchSearch, playMatch } from '../src/index.js';
import { randomMover } from './movers.js';

const FAIRY_STOCKFISH = '/usr/games/fairy-stockfish';
const HAS_FAIRY_STOCKFISH = existsSync(FAIRY_STOCKFISH);
if (!HAS_FAIRY_STOCKFISH)
  console.warn(`packages/engine-bots: the match against a real engine is skipped: ${FAIRY_STOCKFISH} is missing`);

/** Shallow enough for a whole game in a few seconds on a shared machine; deep enough to see mates. */
const DEPTH = 5;

describe.skipIf(!HAS_FAIRY_STOCKFISH)('a match against Fairy-Stockfish', { timeout: 30_000 }, () => {
  let engine: UsiEngine;
  beforeAll(async () => {
    // one thread and a small hash: the machine's cores are shared with the rest of the suite
    engine = await UsiEngine.start({ path: FAIRY_STOCKFISH, options: levelOptions(8, { hash: 16, threads: 1 }) });
    await engine.newGame();
  });
  afterAll(async () => {
    await engine?.quit();
  });

  it('level 8 mates a random mover', async () => {
    const bot: MatchPlayer = { name: 'level 8', level: 8 };
    const random = randomMover(11);
    const search: MatchSearch = (request) =>
      request.player === bot
        ? engine.search({ position: request.position, limits: { kind: 'fixed', depth: DEPTH } })
        : random(request);
    const result = await playMatch({ sente: bot, gote: { name: 'random' }, search, maxPlies: 300 });
    expect(result).toMatchObject({ winner: 'sente', ending: 'checkmate' });
    expect(formatTally('level 8', 'random', [result])).toBe('level 8 vs random: 1–0');
  });
});
