/**
 * Screening (issue 47), on the real stack with the real engine: an engine account (the
 * engine's best moves after the same delay every move) beats a person in rated games; once
 * reported it is selected, its games screened by the engine role at the lowest priority, each
 * player assessed, and its aggregate comes out markable while the person's stays fine.
 */
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { appendFairplay, fairplayDb } from '@shogi/store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engineBeatsPerson, type Scripted, scriptedEngine } from './fairplay-script.js';
import { type Stack, startStack, startStackEngines } from './harness.js';
import { person } from './lishogi-client.js';

let stack: Stack;
let engines: RunningEngineWorker | null;
let engine: Scripted;
beforeAll(async () => {
  stack = await startStack();
  engines = await startStackEngines(stack, {
    path: DEFAULT_ENGINE_PATH,
    workers: 1,
    hashMb: 16,
    analysisDepth: 6,
    screeningDepth: 8,
  });
  engine = await scriptedEngine(12);
}, 60_000);
afterAll(async () => {
  await engine?.close();
  await engines?.close();
  await stack?.close();
});

async function until<T>(what: string, read: () => Promise<T | undefined | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('screening rated games', () => {
  test('a reported engine account is screened, its games judged cheating, its aggregate markable', async () => {
    if (engines === null) throw new Error(`no engine at ${DEFAULT_ENGINE_PATH}`);
    const fp = fairplayDb(stack.db);
    // 1. an engine account and a person, three rated blitz games the engine account wins
    const cheater = await person(stack, 'Machine', ['play']);
    const victim = await person(stack, 'Human', ['play']);
    const games: string[] = [];
    for (let i = 0; i < 3; i++)
      games.push(
        await engineBeatsPerson(stack, engine, cheater, victim, { personMoves: 16, engineDelayMs: 1200, seed: 7 + i }),
      );
    // 2. the games are projected (finished_games, ratings), then nobody is selected: no report yet
    await until('the games projected', async () => {
      const n = await sql<{ n: string }>`select count(*) as n from rating_history`.execute(stack.db);
      return Number(n.rows[0]?.n) === 6 ? true : null;
    });
    expect(await engines.screening.sweep()).toBe(0);
    // 3. a report selects the engine account: the sweep queues its three games
    await appendFairplay(fp, cheater.id, [
      { type: 'PlayerReported', data: { reporterId: victim.id, reason: 'cheat' } },
    ]);
    expect(await engines.screening.sweep()).toBe(3);
    // 4. the engine role screens them: both players of each game assessed
    const rows = await until('six assessments', async () => {
      const r = await fp.selectFrom('fairplay_assessments').selectAll().execute();
      return r.length === 6 ? r : null;
    });
    const mine = rows.filter((r) => r.player_id === cheater.id);
    const evidence = JSON.stringify(mine.map((r) => [r.signals, r.flags, r.rule]));
    // every game at least likely cheating (flat times), most of them cheating (high accuracy as well):
    // a depth-12 search does not agree with another depth-12 search on every move
    expect(mine.filter((r) => r.verdict === 'cheating').length, evidence).toBeGreaterThanOrEqual(2);
    for (const r of mine) {
      expect(['cheating', 'likely_cheating'], evidence).toContain(r.verdict);
      const s = r.signals as { moveTimeCv: number; moves: number; topThreeShare: number };
      expect(s.moves).toBeGreaterThanOrEqual(8);
      expect(s.topThreeShare).toBeGreaterThan(0.5);
      expect(s.moveTimeCv).toBeLessThan(0.25);
      expect(r.flags).toMatchObject({ highlyConsistentMoveTimes: true, noFastMoves: true });
    }
    const theirs = rows.filter((r) => r.player_id === victim.id);
    for (const r of theirs) expect(['not_cheating', 'unlikely_cheating']).toContain(r.verdict);
    // 5. the aggregates: markable for the engine account, fine for the person
    const accounts = await fp.selectFrom('fairplay_accounts').selectAll().execute();
    const verdictOf = (id: string) => accounts.find((a) => a.player_id === id)?.verdict;
    expect(verdictOf(cheater.id)).toBe('markable');
    expect(verdictOf(victim.id)).toBe('fine');
    // 6. screened games are not queued again
    expect(await engines.screening.sweep()).toBe(0);
  }, 240_000);
});
