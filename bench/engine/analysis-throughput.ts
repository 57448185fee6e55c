/**
 * Analysis throughput: finished games (the scripted games' openings, played through the
 * public API by two guests, then resigned) analysed by the server's engine role at once, in
 * positions per second from the requests to the last `done`; beside the reference of the same
 * positions searched to the same depth with the same options by one bare UsiEngine here.
 */
import { analysisOptions } from '@shogi/engine-bots';
import type { AnalysisResponse } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import { UsiEngine } from '@shogi/usi';
import { ApiClient, bearer } from '../../apps/server/src/client.js';
import { scripts } from '../e2e/scripts.js';

export interface AnalysisLoad {
  readonly games: number;
  /** moves of each game before it is resigned */
  readonly plies: number;
  readonly depth: number;
  readonly enginePath: string;
  readonly hashMb: number;
}

export interface AnalysisFigures {
  readonly positions: number;
  readonly seconds: number;
  readonly failed: number;
  readonly bare: { readonly engineName: string; readonly positions: number; readonly seconds: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function untilPly(api: ApiClient, gameId: string, ply: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if ((await api.game(gameId)).ply >= ply) return;
    await sleep(10);
  }
  throw new Error(`game ${gameId} did not reach ply ${ply}`);
}

/** Plays one finished game of `moves` through the API; resolves with its id and a play token. */
async function finishedGame(api: ApiClient, moves: readonly string[], n: number) {
  const [a, b] = await Promise.all([api.createPlayer(`analysis-a${n}`), api.createPlayer(`analysis-b${n}`)]);
  const view = await api.startGame(a, b);
  for (const [ply, usi] of moves.entries()) {
    const answer = await api.submitMove(view.id, ply % 2 === 0 ? a.token : b.token, { usi, ply });
    if (!answer.ok) throw new Error(`move ${usi} of game ${view.id}: ${answer.body.code}`);
    await untilPly(api, view.id, ply + 1);
  }
  const resigned = await api.resign(view.id, a.token);
  if (!resigned.ok) throw new Error(`resigning game ${view.id}: ${resigned.body.code}`);
  return { id: view.id, token: a.token };
}

async function request(baseUrl: string, method: 'GET' | 'POST', gameId: string, token?: string) {
  const response = await fetch(`${baseUrl}/api/games/${gameId}/analysis`, {
    method,
    headers: token === undefined ? {} : bearer(token),
  });
  const body = (await response.json()) as AnalysisResponse & { code?: string };
  if (!response.ok) throw new Error(`${method} analysis of ${gameId}: ${response.status} ${body.code}`);
  return body;
}

/** The same positions, searched one after another by one engine of this process. */
async function bareAnalysis(load: AnalysisLoad, games: readonly (readonly string[])[]) {
  const resources = { hash: load.hashMb, threads: 1 };
  const engine = await UsiEngine.start({ path: load.enginePath, options: { Hash: resources.hash, Threads: 1 } });
  try {
    await engine.setOptions(analysisOptions(resources));
    // the cold start, which a running pool has behind it
    await engine.search({ position: { sfen: START_SFEN, moves: [] }, limits: { kind: 'fixed', depth: load.depth } });
    let positions = 0;
    const t0 = performance.now();
    for (const moves of games)
      for (let ply = 0; ply <= moves.length; ply++) {
        const position = { sfen: START_SFEN, moves: moves.slice(0, ply) };
        await engine.search({ position, limits: { kind: 'fixed', depth: load.depth } });
        positions++;
      }
    return { engineName: engine.name ?? load.enginePath, positions, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await engine.quit();
  }
}

export async function runAnalysisLoad(baseUrl: string, load: AnalysisLoad): Promise<AnalysisFigures> {
  const api = new ApiClient(baseUrl);
  const games = scripts(load.games).map((moves) => moves.slice(0, Math.min(load.plies, moves.length - 1)));
  const played = await Promise.all(games.map((moves, n) => finishedGame(api, moves, n)));
  const t0 = performance.now();
  await Promise.all(played.map((g) => request(baseUrl, 'POST', g.id, g.token)));
  const pending = new Set(played.map((g) => g.id));
  let positions = 0;
  let failed = 0;
  while (pending.size > 0) {
    await sleep(100);
    for (const id of [...pending]) {
      const analysis = await request(baseUrl, 'GET', id);
      if (analysis.status !== 'done' && analysis.status !== 'failed') continue;
      pending.delete(id);
      positions += analysis.plies.length;
      if (analysis.status === 'failed') failed++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return { positions, seconds, failed, bare: await bareAnalysis(load, games) };
}
