import { decide, fold, type GameEvent, initialState, isVersionConflict } from '@shogi/game';
import { eventStoreContract, GOTE, gameCreated, moveSubmitted, SENTE, T0 } from '@shogi/game/testing';
import {
  appendEvents,
  appendMany,
  compareGamesWithLog,
  createPgEventStore,
  createPlayer,
  findPlayerByTokenHash,
  findStalledSubmissions,
  getGame,
  poolOf,
  readAll,
  readStream,
  rebuildGamesTable,
} from '@shogi/store';
import { createTestDatabase, gamesInDistinctPartitions, partitionOf, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ max: 20 });
});
afterAll(async () => {
  await t?.drop();
});

// createDb's Kysely uses named prepared statements on its pool; another Kysely instance (or a
// transaction) the plain kysely statements: the contract holds for both paths
eventStoreContract('postgres (prepared statements)', async () => ({ store: createPgEventStore(t.db) }));
eventStoreContract('postgres (prepared, unbatched)', async () => ({
  store: createPgEventStore(t.db, { batch: false }),
}));
eventStoreContract('postgres (kysely statements)', async () => ({ store: createPgEventStore(t.db.withoutPlugins()) }));

/** Plays moves through decide/evolve against the store, as gateway and worker would. */
async function playMoves(gameId: string, moves: readonly string[]): Promise<void> {
  let state = fold(
    (await readStream(t.db, gameId)).map(({ type, data }) => ({ type, data }) as GameEvent),
    initialState(),
  );
  for (const usi of moves) {
    const player = state.sideToMove === 'sente' ? SENTE : GOTE;
    const sub = decide({ type: 'SubmitMove', playerId: player.id, usi, ply: state.ply, now: T0 }, state);
    if (!sub.ok) throw new Error(sub.rejection.message);
    await appendEvents(t.db, gameId, state.seq, sub.events);
    state = fold(sub.events, state);
    const v = decide({ type: 'ValidatePending', seq: state.seq, now: T0 }, state);
    if (!v.ok) throw new Error(v.rejection.message);
    await appendEvents(t.db, gameId, state.seq, v.events);
    state = fold(v.events, state);
  }
}

/**
 * The horizon lock's proof, run: `late` draws a global position in a transaction held open,
 * `early` draws a higher one and commits first; readAll must wait for `late` and then return
 * both, in position order.
 */
async function lateCommitIsNotSkipped(late: string, early: string): Promise<void> {
  const { rows } = await sql<{ m: string | null }>`select max(global_position) as m from game_events`.execute(t.db);
  const start = Number(rows[0]?.m ?? 0);
  await appendEvents(t.db, late, 0, [gameCreated(late)]);
  await appendEvents(t.db, early, 0, [gameCreated(early)]);
  const afterCreates = (await readAll(t.db, start, 100)).at(-1)?.globalPosition ?? 0;
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let drawn!: () => void;
  const positionDrawn = new Promise<void>((r) => {
    drawn = r;
  });
  // 1. a transaction draws a position for `late` and stays open
  const slow = t.db.transaction().execute(async (trx) => {
    await appendEvents(trx, late, 1, [moveSubmitted('7g7f', 0)]);
    drawn();
    await released;
  });
  await positionDrawn;
  // 2. another append draws a higher position and commits first
  await appendEvents(t.db, early, 1, [moveSubmitted('7g7f', 0)]);
  // 3. a reader now must not return the higher position without the lower one: it waits
  let read: Awaited<ReturnType<typeof readAll>> | null = null;
  const reading = readAll(t.db, afterCreates, 100).then((r) => {
    read = r;
  });
  await new Promise((r) => setTimeout(r, 200));
  expect(read).toBeNull();
  // 4. once the slow transaction commits, the reader gets both, in position order
  release();
  await slow;
  await reading;
  const got = (read ?? []) as Awaited<ReturnType<typeof readAll>>;
  expect(got.map((e) => `${e.gameId}:${e.seq}`)).toEqual([`${late}:2`, `${early}:2`]);
  expect(got[0]?.globalPosition).toBeLessThan(got[1]?.globalPosition ?? 0);
}

describe('postgres event store', () => {
  it('keeps the games row in step with the events, in the same statement', async () => {
    await appendEvents(t.db, 'row1', 0, [gameCreated('row1')]);
    expect(await getGame(t.db, 'row1')).toMatchObject({
      status: 'ongoing',
      ply: 0,
      last_seq: 1,
      side_to_move: 'sente',
    });
    await playMoves('row1', ['7g7f', '3c3d']);
    expect(await getGame(t.db, 'row1')).toMatchObject({
      ply: 2,
      last_seq: 5,
      side_to_move: 'sente',
      sfen: 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3',
    });
    const played = fold(
      (await readStream(t.db, 'row1')).map(({ type, data }) => ({ type, data }) as GameEvent),
      initialState(),
    );
    const resign = decide({ type: 'Resign', playerId: SENTE.id, now: T0 }, played);
    if (!resign.ok) throw new Error('resign');
    await appendEvents(t.db, 'row1', 5, resign.events);
    expect(await getGame(t.db, 'row1')).toMatchObject({
      status: 'ended',
      winner: 'gote',
      result: 'gote',
      end_reason: 'resignation',
      last_seq: 7,
    });
  });

  it('writes neither events nor the row on a conflict', async () => {
    await appendEvents(t.db, 'c1', 0, [gameCreated('c1')]);
    const e = await appendEvents(t.db, 'c1', 0, [gameCreated('c1')]).catch((x: unknown) => x);
    expect(isVersionConflict(e)).toBe(true);
    const ahead = await appendEvents(t.db, 'c1', 3, [moveSubmitted('7g7f', 0)]).catch((x: unknown) => x);
    expect(isVersionConflict(ahead)).toBe(true);
    expect((await readStream(t.db, 'c1')).length).toBe(1);
    expect(await getGame(t.db, 'c1')).toMatchObject({ last_seq: 1 });
  });

  it('readAll never skips an event whose transaction commits after a later position', async () => {
    await lateCommitIsNotSkipped('late', 'early');
  });

  it('readAll never skips a late commit in another partition of the log than the later position', async () => {
    // the positions come from one sequence and the lock is the database's, not a partition's
    const [late, early] = await gamesInDistinctPartitions(t.db, 'late-across-', 2);
    if (late === undefined || early === undefined) throw new Error('two games expected');
    expect(await partitionOf(t.db, late)).not.toBe(await partitionOf(t.db, early));
    await lateCommitIsNotSkipped(late, early);
  });

  it('rebuilds the games table from the log to equal the live one', async () => {
    await appendEvents(t.db, 'rb1', 0, [gameCreated('rb1', { ruleset: 'jsa' })]);
    await playMoves('rb1', ['7g7f', '3c3d', '8h2b+']);
    await appendEvents(t.db, 'rb2', 0, [gameCreated('rb2')]);
    await playMoves('rb2', [
      '5i4h',
      '5a4b',
      '4h5i',
      '4b5a',
      '5i4h',
      '5a4b',
      '4h5i',
      '4b5a',
      '5i4h',
      '5a4b',
      '4h5i',
      '4b5a',
    ]);
    expect(await getGame(t.db, 'rb2')).toMatchObject({
      status: 'ended',
      end_reason: 'sennichite',
      result: 'draw',
      winner: null,
    });
    const cmp = await compareGamesWithLog(t.db);
    expect(cmp.differences).toEqual([]);
    expect(cmp.rebuilt).toBe(cmp.live);
    // corrupt the live table, see the difference, rebuild, equal again
    await t.db.updateTable('games').set({ ply: 99 }).where('id', '=', 'rb1').execute();
    expect((await compareGamesWithLog(t.db)).differences.map((d) => [d.id, d.columns])).toEqual([['rb1', ['ply']]]);
    await rebuildGamesTable(t.db);
    expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
  });

  it('rebuilds rows whose pending submission, verdicts and clock deadline come from the tail of the stream', async () => {
    const sfen = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';
    const clock = (deadlineAt: string) => ({
      sente: { mainMs: 60_000, periodsLeft: 1, periodMs: 10_000 },
      gote: { mainMs: 60_000, periodsLeft: 1, periodMs: 10_000 },
      movedAt: T0.toISOString(),
      deadlineAt,
    });
    const accepted = (submittedSeq: number, ply: number, deadlineAt?: string): GameEvent => ({
      type: 'MoveAccepted',
      data: {
        submittedSeq,
        ply,
        usi: '7g7f',
        sfen,
        check: false,
        ...(deadlineAt === undefined ? {} : { clock: clock(deadlineAt) }),
      },
    });
    const rejected = (submittedSeq: number, ply: number): GameEvent => ({
      type: 'MoveRejected',
      data: { submittedSeq, usi: '1a1b', ply, reason: 'illegal_move' as never },
    });
    const timed = { timeControl: { kind: 'byoyomi', mainSeconds: 60, byoyomiSeconds: 10, periods: 1 } } as const;
    // a submission still waiting for its verdict
    await appendEvents(t.db, 'tp1', 0, [gameCreated('tp1'), moveSubmitted('7g7f', 0)]);
    // an accepted move, then a rejected one: ply from the accept, nothing pending
    await appendEvents(t.db, 'tp2', 0, [
      gameCreated('tp2'),
      moveSubmitted('7g7f', 0),
      accepted(2, 1),
      moveSubmitted('1a1b', 1, GOTE),
      rejected(4, 1),
    ]);
    // two submissions, only the first answered: the second is pending
    await appendEvents(t.db, 'tp3', 0, [
      gameCreated('tp3'),
      moveSubmitted('7g7f', 0),
      moveSubmitted('7g7f', 0),
      accepted(2, 1),
    ]);
    // a timed game: the deadline of its last accepted move, then one more submission pending
    await appendEvents(t.db, 'tp4', 0, [
      gameCreated('tp4', timed as never),
      moveSubmitted('7g7f', 0),
      accepted(2, 1, '2026-01-01T00:01:00.000Z'),
      moveSubmitted('3c3d', 1, GOTE),
    ]);
    expect(await getGame(t.db, 'tp1')).toMatchObject({ pending_seq: 2, ply: 0 });
    expect(await getGame(t.db, 'tp2')).toMatchObject({ pending_seq: null, ply: 1, last_seq: 5 });
    expect(await getGame(t.db, 'tp3')).toMatchObject({ pending_seq: 3, ply: 1 });
    expect((await getGame(t.db, 'tp4'))?.deadline_at?.toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
  });

  it('appends to several games in one statement, each game all-or-nothing', async () => {
    for (const g of ['mA', 'mB', 'mC']) await appendEvents(t.db, g, 0, [gameCreated(g)]);
    await appendEvents(t.db, 'mC', 1, [moveSubmitted('7g7f', 0)]);
    const results = await appendMany(t.db, [
      { gameId: 'mA', expectedSeq: 1, events: [moveSubmitted('7g7f', 0)] },
      { gameId: 'mB', expectedSeq: 4, events: [moveSubmitted('7g7f', 0)] }, // ahead of the stream
      { gameId: 'mA', expectedSeq: 1, events: [moveSubmitted('2g2f', 0)] }, // same game twice
    ]);
    expect(results.map((r) => (isVersionConflict(r) ? 'conflict' : r.lastSeq))).toEqual([2, 'conflict', 'conflict']);
    expect((await readStream(t.db, 'mA')).map((e) => e.seq)).toEqual([1, 2]);
    expect(await getGame(t.db, 'mA')).toMatchObject({ last_seq: 2 });
    expect(await getGame(t.db, 'mB')).toMatchObject({ last_seq: 1 });
    // a stale expected seq makes the statement hit the unique key: the batch is settled game by game
    const raced = await appendMany(t.db, [
      { gameId: 'mC', expectedSeq: 1, events: [moveSubmitted('2g2f', 0)] },
      { gameId: 'mB', expectedSeq: 1, events: [moveSubmitted('2g2f', 0)] },
    ]);
    expect(raced.map((r) => (isVersionConflict(r) ? 'conflict' : r.lastSeq))).toEqual(['conflict', 2]);
    expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
  });

  it('batches concurrent appends of many games through the event store', async () => {
    const store = createPgEventStore(t.db, { maxInFlight: 2 });
    const ids = Array.from({ length: 40 }, (_, i) => `bt${i}`);
    await Promise.all(ids.map((id) => store.append(id, 0, [gameCreated(id)])));
    const results = await Promise.allSettled([
      ...ids.map((id) => store.append(id, 1, [moveSubmitted('7g7f', 0)])),
      ...ids.map((id) => store.append(id, 1, [moveSubmitted('2g2f', 0)])),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(ids.length);
    for (const r of results) if (r.status === 'rejected') expect(isVersionConflict(r.reason)).toBe(true);
    const tails = await Promise.all(ids.map((id) => store.readStream(id, 1)));
    expect(tails.every((tail) => tail.length === 1)).toBe(true);
    expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
  });

  it('tracks the submission awaiting a verdict, for the sweeper', async () => {
    await appendEvents(t.db, 'pend', 0, [gameCreated('pend')]);
    await appendEvents(t.db, 'pend', 1, [moveSubmitted('7g7f', 0)]);
    expect(await getGame(t.db, 'pend')).toMatchObject({ pending_seq: 2 });
    expect(await findStalledSubmissions(t.db, 0)).toContainEqual({ gameId: 'pend', seq: 2 });
    expect(await findStalledSubmissions(t.db, 60_000)).not.toContainEqual({ gameId: 'pend', seq: 2 });
    const verdict = {
      type: 'MoveAccepted',
      data: { submittedSeq: 2, ply: 1, usi: '7g7f', sfen: 'x b - 2', check: false },
    } as const;
    await appendEvents(t.db, 'pend', 2, [verdict]);
    expect(await getGame(t.db, 'pend')).toMatchObject({ pending_seq: null, ply: 1 });
    // two submissions, a verdict for the first: the second still waits (kysely path too)
    await appendEvents(t.db, 'pend', 3, [moveSubmitted('3c3d', 1), moveSubmitted('3c3e', 1)]);
    await appendEvents(t.db.withoutPlugins(), 'pend', 5, [
      { type: 'MoveRejected', data: { submittedSeq: 4, usi: '3c3d', ply: 1, reason: 'stale_ply' } },
    ]);
    expect(await getGame(t.db, 'pend')).toMatchObject({ pending_seq: 5 });
    await appendEvents(t.db, 'pend', 6, [
      { type: 'MoveRejected', data: { submittedSeq: 5, usi: '3c3e', ply: 1, reason: 'stale_ply' } },
    ]);
    expect(await getGame(t.db, 'pend')).toMatchObject({ pending_seq: null });
    expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
  });

  it('stores players by token hash', async () => {
    await createPlayer(t.db, { id: 'pl1', name: 'Alice', tokenHash: 'h1' });
    expect(await findPlayerByTokenHash(t.db, 'h1')).toMatchObject({ id: 'pl1', name: 'Alice' });
    expect(await findPlayerByTokenHash(t.db, 'nope')).toBeUndefined();
  });
});

describe('createDb', () => {
  it("plans the event store's prepared statements generically, and nothing else", async () => {
    const statements = poolOf(t.db);
    expect(statements).toBeDefined();
    const mode = async (q: Promise<{ rows: { plan_cache_mode: string }[] }>) => (await q).rows[0]?.plan_cache_mode;
    expect(await mode((statements as NonNullable<typeof statements>).query('show plan_cache_mode'))).toBe(
      'force_generic_plan',
    );
    expect(await mode(sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(t.db))).toBe('auto');
  });
});
