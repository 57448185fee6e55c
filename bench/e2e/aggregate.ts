/**
 * The game aggregate's share of a move, in one process and no I/O: the gateway's decide of
 * the submission and its evolve, then the worker's decide of the verdict and its evolve,
 * over seeded random games. Prints µs per move (median of the timed rounds), the number to
 * compare when changing decide, evolve or the state's shape.
 *
 *   npx tsx --conditions=@shogi/source bench/e2e/aggregate.ts [--games 40] [--rounds 12]
 */
import { parseArgs } from 'node:util';
import { decide, evolve, type GameState, initialState } from '@shogi/game';
import { GOTE, gameCreated, randomPlayout, SENTE } from '@shogi/game/testing';

const { values } = parseArgs({
  options: { games: { type: 'string', default: '40' }, rounds: { type: 'string', default: '12' } },
});
const gameCount = Number(values.games);
const rounds = Number(values.rounds);
const games = Array.from({ length: gameCount }, (_, i) => randomPlayout(i + 1, 150).moves);
const now = new Date();

function play(moves: readonly string[], gameId: string): number {
  let state: GameState = evolve(initialState(), gameCreated(gameId));
  let plies = 0;
  for (const [ply, usi] of moves.entries()) {
    const player = ply % 2 === 0 ? SENTE : GOTE;
    const submitted = decide({ type: 'SubmitMove', playerId: player.id, usi, ply, now }, state);
    if (!submitted.ok) throw new Error(`ply ${ply} ${usi}: ${submitted.rejection.code}`);
    for (const e of submitted.events) state = evolve(state, e);
    const verdict = decide({ type: 'ValidatePending', seq: state.seq, now }, state);
    if (!verdict.ok) throw new Error(`ply ${ply} ${usi}: ${verdict.rejection.code}`);
    for (const e of verdict.events) state = evolve(state, e);
    plies++;
    if (state.status === 'ended') break;
  }
  return plies;
}

const perMove: number[] = [];
let moves = 0;
for (let round = 0; round < rounds; round++) {
  const start = process.hrtime.bigint();
  moves = 0;
  for (let r = 0; r < 5; r++) for (const [i, g] of games.entries()) moves += play(g, `g${i}`);
  const elapsed = Number(process.hrtime.bigint() - start);
  if (round >= 3) perMove.push(elapsed / moves / 1000); // the first rounds warm the JIT
}
perMove.sort((a, b) => a - b);
const median = perMove[Math.floor(perMove.length / 2)] ?? Number.NaN;
console.log(
  `game aggregate, decide + evolve of a submission and its verdict: ${median.toFixed(2)} µs per move ` +
    `(median of ${perMove.length} rounds of ${moves} moves; min ${perMove[0]?.toFixed(2)}, max ${perMove.at(-1)?.toFixed(2)})`,
);
