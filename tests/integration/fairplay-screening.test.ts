/**
 * Screening (issue 47), on the real stack with the real engine: an engine account (the
 * engine's best moves after the same delay every move) beats a person in rated games; once
 * reported it is selected, its games screened by the engine role at the lowest priority, each
 * player assessed, and its aggregate comes out markable while the person's stays fine.
 */

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { loadConfig } from '@shogi/gateway';
import { createAccount, type Db, fairplayDb, insertToken, readFairplay, rebuildStats } from '@shogi/store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BLITZ, engineBeatsPerson, type Scripted, scriptedEngine } from './fairplay-script.js';
import { bearer, call, NO_LIMIT, type Stack, startStack, startStackEngines, waitForEvent } from './harness.js';
import { type Person, person } from './lishogi-client.js';

let stack: Stack;
let engines: RunningEngineWorker | null;
let engine: Scripted;
beforeAll(async () => {
  // the reports limit as the server has it (startStack turns some others off)
  stack = await startStack({ config: { rateLimits: { ...loadConfig({}).rateLimits, guests: NO_LIMIT } } });
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

/** A token with the mod scope for a new account, as `npm run admin:token -- USERNAME --scope mod` mints one. */
async function modToken(db: Db): Promise<{ token: string; playerId: string }> {
  const playerId = randomUUID();
  const username = `moderator-${randomBytes(4).toString('hex')}`;
  await createAccount(db, { id: playerId, name: username, username, passwordHash: '!' });
  const token = randomBytes(32).toString('base64url');
  await insertToken(db, {
    id: randomUUID(),
    playerId,
    kind: 'personal',
    name: 'mod',
    tokenHash: createHash('sha256').update(token).digest('hex'),
    scopes: ['mod'],
    expiresAt: null,
  });
  return { token, playerId };
}

const ratingOf = async (playerId: string): Promise<number> => {
  const r = await sql<{
    rating: number;
  }>`select rating from ratings where player_id = ${playerId} and category = 'blitz'`.execute(stack.db);
  return r.rows[0]?.rating ?? Number.NaN;
};
const allRatings = async () =>
  (
    await sql<
      Record<string, unknown>
    >`select player_id, category, rating, rd, volatility, games from ratings order by player_id, category`.execute(
      stack.db,
    )
  ).rows;

/** Short rated blitz games (one move each, then a resignation), alternating the winner, until `player`'s rating is settled. */
async function settle(player: Person, sparring: Person, games: number): Promise<void> {
  for (let i = 0; i < games; i++) {
    const [sente, gote] = i % 2 === 0 ? [player, sparring] : [sparring, player];
    const created = await call(
      stack.app,
      'POST',
      '/api/games',
      { sente: sente.id, gote: gote.id, rated: true, timeControl: BLITZ },
      bearer(stack.adminToken),
    );
    const gameId = created.body.id as string;
    await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '7g7f', ply: 0 }, bearer(sente.token));
    await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 1);
    await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '3c3d', ply: 1 }, bearer(gote.token));
    await waitForEvent(stack.app, gameId, (e) => e.type === 'MoveAccepted' && e.payload.ply === 2);
    await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer((i % 4 < 2 ? gote : sente).token));
    await waitForEvent(stack.app, gameId, (e) => e.type === 'GameEnded');
  }
}

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
    // refunds go to victims with a settled rating: the person has played many rated games before
    await settle(victim, await person(stack, 'Sparring', ['play']), 20);
    const games: string[] = [];
    for (let i = 0; i < 3; i++)
      games.push(
        await engineBeatsPerson(stack, engine, cheater, victim, { personMoves: 16, engineDelayMs: 1200, seed: 7 + i }),
      );
    // 2. the games are projected (finished_games, ratings)
    await until('the games projected', async () => {
      const n = await sql<{ n: string }>`select count(*) as n from rating_history`.execute(stack.db);
      return Number(n.rows[0]?.n) === 2 * (3 + 20) ? true : null;
    });
    // 3. the person reports the engine account (POST /api/report): the sweep queues its three games
    const report = await call(
      stack.app,
      'POST',
      '/api/report',
      { username: cheater.username, reason: 'cheat', text: 'every move the engine' },
      bearer(victim.token),
    );
    expect(report).toEqual({ status: 202, body: { ok: true } });
    // (a new account that won three rated games has also risen fast: its opponents' games may come too)
    const queued = await engines.screening.sweep();
    expect(queued).toBeGreaterThanOrEqual(3);
    // 4. the engine role screens them: both players of each game assessed
    await until(
      'every queued game assessed',
      async () => {
        const n = await sql<{ n: string }>`select count(distinct game_id) as n from fairplay_assessments`.execute(
          stack.db,
        );
        return Number(n.rows[0]?.n) === queued ? true : null;
        // one engine screens every queued game at three lines: minutes on a loaded machine
      },
      180_000,
    );
    const rows = await fp.selectFrom('fairplay_assessments').selectAll().where('game_id', 'in', games).execute();
    expect(rows).toHaveLength(6);
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

    // 7. a moderator's queue shows the engine account first, markable, with its evidence
    const mod = await modToken(stack.db);
    expect((await call(stack.app, 'GET', '/api/mod/queue', undefined, bearer(victim.token))).status).toBe(403);
    const queue = await call(stack.app, 'GET', '/api/mod/queue', undefined, bearer(mod.token));
    expect(queue.status).toBe(200);
    const entry = queue.body.entries.find((e: { username: string }) => e.username === cheater.username);
    expect(entry).toMatchObject({
      verdict: 'markable',
      evidence: { reports: [{ reporter: victim.username, reason: 'cheat' }] },
    });
    expect(entry.evidence.games).toHaveLength(3);
    // 8. the moderator marks it: one event with who and why, and the person's losses refunded as events
    const before = await ratingOf(victim.id);
    const marked = await call(
      stack.app,
      'POST',
      `/api/mod/${cheater.username}/engine`,
      { reason: 'engine moves, flat times' },
      bearer(mod.token),
    );
    expect(marked.body).toEqual({
      username: cheater.username,
      marked: true,
      changed: true,
      refunds: 1,
      tournaments: 0,
    });
    const stream = await readFairplay(fp, cheater.id);
    expect(stream.map((e) => e.event.type)).toEqual(['PlayerReported', 'EngineMarked', 'RatingRefunded']);
    expect(stream[1]?.event.data).toEqual({ by: mod.playerId, reason: 'engine moves, flat times' });
    const refunded = (stream[2]?.event.data as { points: number } | undefined)?.points ?? 0;
    expect(refunded).toBeGreaterThan(0);
    expect(refunded).toBeLessThanOrEqual(150);
    const after = await until('the refund projected', async () => {
      const r = await ratingOf(victim.id);
      return r !== before ? r : null;
    });
    expect(after).toBeCloseTo(before + refunded, 6);
    // 9. marking again records nothing; the queue no longer shows it
    const again = await call(
      stack.app,
      'POST',
      `/api/mod/${cheater.username}/engine`,
      { reason: 'again' },
      bearer(mod.token),
    );
    expect(again.body).toMatchObject({ changed: false, refunds: 0 });
    const later = await call(stack.app, 'GET', '/api/mod/queue', undefined, bearer(mod.token));
    expect(later.body.entries.map((e: { username: string }) => e.username)).not.toContain(cheater.username);
    // 10. the ratings rebuilt from the log are the same, refund included
    const live = await allRatings();
    await rebuildStats(stack.db);
    expect(await allRatings()).toEqual(live);
    // 11. an unmark is an event too, and keeps the refund
    const unmarked = await call(
      stack.app,
      'DELETE',
      `/api/mod/${cheater.username}/engine`,
      { reason: 'appeal accepted' },
      bearer(mod.token),
    );
    expect(unmarked.body).toEqual({
      username: cheater.username,
      marked: false,
      changed: true,
      refunds: 0,
      tournaments: 0,
    });
    expect((await readFairplay(fp, cheater.id)).at(-1)?.event).toEqual({
      type: 'EngineUnmarked',
      data: { by: mod.playerId, reason: 'appeal accepted' },
    });
    expect(await ratingOf(victim.id)).toBeCloseTo(after, 6);
  }, 300_000);
});

describe('reports', () => {
  test('a report flood is limited; unknown accounts, oneself and bad reasons are refused', async () => {
    const reporter = await person(stack, 'Reporter', ['play']);
    const target = await person(stack, 'Target', ['play']);
    const send = (body: unknown) => call(stack.app, 'POST', '/api/report', body, bearer(reporter.token));
    expect((await send({ username: 'nobody_here', reason: 'cheat' })).body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await send({ username: reporter.username, reason: 'cheat' })).body.code).toBe('SELF_REPORT');
    expect((await send({ username: target.username, reason: 'rude' })).status).toBe(400);
    // RATE_LIMIT_REPORTS_MAX (5 an hour) counts every request of the account, the three refused ones too
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send({ username: target.username, reason: 'boost' })).status);
    expect(statuses).toEqual([202, 202, 429, 429]);
    // the two accepted reports of one account merge in its fair-play stream
    expect((await readFairplay(fairplayDb(stack.db), target.id)).map((e) => e.event.type)).toEqual([
      'PlayerReported',
      'PlayerReported',
    ]);
  });
});

describe('a marked account', () => {
  test('is on no leaderboard, and back on it once unmarked', async () => {
    // 1. two accounts with settled ratings, on the blitz leaderboard
    const a = await person(stack, 'Leader', ['play']);
    const b = await person(stack, 'Second', ['play']);
    await settle(a, b, 20);
    const board = async () => {
      const res = await call(stack.app, 'GET', '/api/leaderboards/blitz');
      return (res.body.players as { playerId: string }[]).map((e) => e.playerId);
    };
    await until('both on the leaderboard', async () => ((await board()).includes(a.id) ? true : null));
    // 2. marked: off the leaderboard; unmarked: back
    const mod = await modToken(stack.db);
    await call(stack.app, 'POST', `/api/mod/${a.username}/engine`, { reason: 'test' }, bearer(mod.token));
    expect(await board()).not.toContain(a.id);
    expect(await board()).toContain(b.id);
    await call(stack.app, 'DELETE', `/api/mod/${a.username}/engine`, { reason: 'test' }, bearer(mod.token));
    expect(await board()).toContain(a.id);
  });
});
