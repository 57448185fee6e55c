/**
 * Scripted rated games for the fair-play tests: an "engine account" that plays the engine's
 * best move (real Fairy-Stockfish, its own process, at full strength to a fixed depth) after
 * the same time from its turn's start every move, against a "person" who plays a legal move of its own choosing
 * after a delay that varies as people's do, and resigns after a number of moves.
 */

import { DEFAULT_ENGINE_PATH } from '@shogi/engine-worker';
import { formatUsi, legalMoves, PositionHistory, parseSfen } from '@shogi/rules';
import { EnginePool } from '@shogi/usi';
import { bearer, call, type Stack, waitForEvent } from './harness.js';
import type { Person } from './lishogi-client.js';

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
export const BLITZ = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 } as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Scripted {
  readonly bestMove: (moves: readonly string[]) => Promise<string>;
  close(): Promise<void>;
}

/** The engine account's engine: its own process, beside the server's pool. */
export async function scriptedEngine(depth: number): Promise<Scripted> {
  const pool = await EnginePool.start({
    size: 1,
    engine: { path: DEFAULT_ENGINE_PATH, options: { Hash: 16, Threads: 1 } },
  });
  return {
    async bestMove(moves) {
      const result = await pool.run((engine) =>
        engine.search({ position: { sfen: START, moves: [...moves] }, limits: { kind: 'fixed', depth } }),
      );
      if (result.bestmove.kind !== 'move') throw new Error('the engine has no move');
      return result.bestmove.move;
    },
    close: () => pool.close(),
  };
}

/** A person's move: a legal one picked by a seeded sequence, not the engine's. */
function personMove(moves: readonly string[], pick: number): string | null {
  const parsed = parseSfen(START);
  if (!parsed.ok) throw new Error('start position');
  const game = new PositionHistory(parsed.value);
  for (const m of moves) game.playUsi(m);
  const legal = legalMoves(game.position).map(formatUsi);
  return legal.length === 0 ? null : (legal[pick % legal.length] as string);
}

async function play(stack: Stack, gameId: string, who: Person, usi: string, ply: number): Promise<void> {
  const res = await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi, ply }, bearer(who.token));
  if (res.status !== 202) throw new Error(`move ${usi} at ${ply}: ${res.status} ${JSON.stringify(res.body)}`);
  await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === ply + 1);
}

/**
 * One rated blitz game, the engine account as sente: it answers every move `engineDelayMs` after its turn began;
 * the person waits a varied time, and resigns once it has made `personMoves` moves.
 */
export async function engineBeatsPerson(
  stack: Stack,
  engine: Scripted,
  cheater: Person,
  victim: Person,
  options: { readonly personMoves: number; readonly engineDelayMs: number; readonly seed: number },
): Promise<string> {
  const created = await call(
    stack.app,
    'POST',
    '/api/games',
    { sente: cheater.id, gote: victim.id, rated: true, timeControl: BLITZ },
    bearer(stack.adminToken),
  );
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const gameId = created.body.id as string;
  const moves: string[] = [];
  let seed = options.seed;
  for (let turn = 0; turn < options.personMoves; turn++) {
    // a machine's time: the same from its turn's start every move, however long the search took
    const turnStart = Date.now();
    const best = await engine.bestMove(moves);
    await sleep(Math.max(0, turnStart + options.engineDelayMs - Date.now()));
    await play(stack, gameId, cheater, best, moves.length);
    moves.push(best);
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    await sleep(50 + (seed % 900));
    const reply = personMove(moves, seed);
    // mated: the game is over
    if (reply === null) break;
    await play(stack, gameId, victim, reply, moves.length);
    moves.push(reply);
  }
  if (personMove(moves, 0) !== null) {
    const resigned = await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(victim.token));
    if (resigned.status !== 202) throw new Error(`resign: ${JSON.stringify(resigned.body)}`);
  }
  await waitForEvent(stack.app, gameId, (e) => e.type === 'GameEnded');
  return gameId;
}
