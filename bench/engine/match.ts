/**
 * House-bot strength: whole games refereed by packages/rules between engine bots at their
 * levels and a random mover, printed as tallies with how each game ended. The random mover is
 * the reference: a level that does not beat it by checkmate every time is not a bot.
 *
 *   npm run bench:engine:match                       # 10 games a pairing
 *   npm run bench:engine:match -- --games 4 --pairings 8-random
 *
 * Options: --games N (10, colours alternate), --pairings (8-random,1-8: a comma-separated list
 * of A-B, each a level 1-8 or `random`), --engine PATH (ENGINE_PATH or
 * /usr/games/fairy-stockfish), --max-plies (400), --seed (1).
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  formatTally,
  isLevel,
  type Level,
  levelOptions,
  type MatchPlayer,
  type MatchResult,
  type MatchSearch,
  playMatch,
  searchLimitsFor,
} from '@shogi/engine-bots';
import { formatUsi, legalMoves, parseSfen } from '@shogi/rules';
import { UsiEngine } from '@shogi/usi';
// the demo's seeded generator: the random mover's games can be replayed from the seed
import { seeded } from '../../apps/server/src/demo/brain.js';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '10' },
    pairings: { type: 'string', default: '8-random,1-8' },
    engine: { type: 'string', default: process.env.ENGINE_PATH ?? '/usr/games/fairy-stockfish' },
    'max-plies': { type: 'string', default: '400' },
    seed: { type: 'string', default: '1' },
  },
});
const GAMES = Number(values.games);
const MAX_PLIES = Number(values['max-plies']);
if (!(Number.isInteger(GAMES) && GAMES > 0)) throw new Error('--games takes a whole number above 0');
if (!existsSync(values.engine)) {
  console.error(`no engine at ${values.engine}: apt-get install fairy-stockfish, or give --engine PATH`);
  process.exit(2);
}

type Side = 'random' | Level;
const parseSide = (text: string): Side => {
  if (text === 'random') return 'random';
  const level = Number(text);
  if (!isLevel(level)) throw new Error(`a pairing side is a level 1-8 or random, not ${text}`);
  return level;
};
const pairings = values.pairings.split(',').map((p) => p.split('-').map(parseSide) as [Side, Side]);

const random = seeded(Number(values.seed));

interface Player extends MatchPlayer {
  readonly engine: UsiEngine | null;
}

const engines = new Map<Level, UsiEngine>();
async function playerFor(side: Side): Promise<Player> {
  if (side === 'random') return { name: 'random', engine: null };
  let engine = engines.get(side);
  if (engine === undefined) {
    engine = await UsiEngine.start({ path: values.engine, options: levelOptions(side, { hash: 16, threads: 1 }) });
    engines.set(side, engine);
  }
  return { name: `level ${side}`, level: side, engine };
}

const search: MatchSearch<Player> = async ({ player, side, position, sfen }) => {
  if (player.engine === null || player.level === undefined) {
    const pos = parseSfen(sfen);
    if (!pos.ok) throw new Error(`bad position: ${sfen}`);
    const moves = legalMoves(pos.value);
    const move = moves[Math.floor(random() * moves.length)];
    if (move === undefined) throw new Error('no legal move to choose from');
    return { bestmove: { kind: 'move', move: formatUsi(move) } };
  }
  const limits = searchLimitsFor(player.level, null, side, { kind: 'unlimited' });
  return player.engine.search({ position, limits });
};

try {
  for (const [a, b] of pairings) {
    const [first, second] = [await playerFor(a), await playerFor(b)];
    const results: MatchResult[] = [];
    const started = performance.now();
    for (let game = 0; game < GAMES; game++) {
      const [sente, gote] = game % 2 === 0 ? [first, second] : [second, first];
      for (const p of [sente, gote]) await p.engine?.newGame();
      results.push(await playMatch({ sente, gote, search, maxPlies: MAX_PLIES }));
    }
    const endings = new Map<string, number>();
    for (const r of results) {
      const winner = r.winner === null ? 'draw' : r.winner === 'sente' ? r.sente : r.gote;
      const key = `${winner} by ${r.ending}`;
      endings.set(key, (endings.get(key) ?? 0) + 1);
    }
    console.log(formatTally(first.name, second.name, results));
    console.log(
      `  ${[...endings].map(([k, n]) => `${n}× ${k}`).join(', ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
} finally {
  await Promise.all([...engines.values()].map((e) => e.quit()));
}
