/**
 * Fair play beyond the games (issue 47), through the API: accounts seen from one address are
 * each other's related accounts in the moderators' queue (a keyed hash kept, never the
 * address); a mark takes the account out of its running tournaments (its opponents' losses to it
 * become wins) and out of the results of those finished in the last 14 days, as events on the
 * tournament streams, so the projections rebuilt from the log agree; older results stay; it
 * joins no tournament again; the top places of a rated tournament are screened.
 */
import {
  createPgTournamentEventStore,
  DEFAULT_SELECTION,
  rebuildTournaments,
  screenedPlayers,
  tournamentLeaders,
} from '@shogi/store';
import { TournamentCommandHandler, type TournamentTerms } from '@shogi/tournament';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, mintAdminToken, type Stack, startStack } from './harness.js';

let stack: Stack;
let modToken: string;
beforeAll(async () => {
  // no director ticks: the test writes the tournaments' streams itself
  stack = await startStack({ config: { tournamentTickMs: 3_600_000 } });
  modToken = await mintAdminToken(stack.db, 'mod');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

interface Account {
  readonly id: string;
  readonly username: string;
  readonly token: string;
}
let counter = 0;
/** Registers and logs in from `ip`, as a browser there would. */
async function accountFrom(ip: string, name: string): Promise<Account> {
  const username = `${name}_${++counter}_${Date.now() % 100_000}`;
  const password = 'a long enough password';
  const post = (url: string) =>
    stack.app.inject({ method: 'POST', url, remoteAddress: ip, payload: { username, password } });
  const registered = await post('/api/accounts');
  expect(registered.statusCode, registered.body).toBe(201);
  const session = await post('/api/session');
  expect(session.statusCode, session.body).toBe(201);
  return { id: registered.json().id, username, token: session.json().token };
}

const queueEntry = async (username: string) => {
  const queue = await call(stack.app, 'GET', '/api/mod/queue', undefined, bearer(modToken));
  expect(queue.status).toBe(200);
  return queue.body.entries.find((e: { username: string }) => e.username === username);
};

describe('related accounts', () => {
  test('accounts seen from one address are related in the queue; the address itself is kept nowhere', async () => {
    const main = await accountFrom('203.0.113.7', 'Main');
    const alt = await accountFrom('203.0.113.7', 'Alt');
    // an IPv6 client is its /64: two addresses of one prefix are one
    const v6a = await accountFrom('2001:db8:5:6::1', 'SixA');
    const v6b = await accountFrom('2001:db8:5:6:ffff::2', 'SixB');
    const stranger = await accountFrom('198.51.100.9', 'Stranger');
    // the stranger reports both: both are queued with their evidence
    for (const target of [main, v6a]) {
      const report = await call(
        stack.app,
        'POST',
        '/api/report',
        { username: target.username, reason: 'cheat' },
        bearer(stranger.token),
      );
      expect(report.status).toBe(202);
    }
    expect((await queueEntry(main.username)).evidence.relatedAccounts).toEqual([alt.username]);
    expect((await queueEntry(v6a.username)).evidence.relatedAccounts).toEqual([v6b.username]);
    const stored = await sql<{ address_hash: string }>`select address_hash from account_addresses`.execute(stack.db);
    expect(stored.rows.length).toBeGreaterThanOrEqual(4);
    for (const r of stored.rows) {
      expect(r.address_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(r.address_hash).not.toContain('203');
    }
  });
});

const T_MIN = 60_000;
const DAY = 24 * 60 * T_MIN;
const terms = (startsAt: Date, name: string): TournamentTerms => ({
  name,
  format: 'arena',
  clock: { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 },
  minutes: 60,
  startsAt: startsAt.toISOString(),
  rated: true,
  position: null,
  berserkable: true,
  streakable: true,
  hasChat: true,
  description: null,
  passwordHash: null,
  conditions: {},
  botsAllowed: false,
  maxPlayers: 300,
  robinCycles: 1,
});

/** An arena started at `start` where the cheater beats each other player, finished an hour later or not. */
async function arena(id: string, start: Date, cheat: Account, others: readonly Account[], finish: boolean) {
  let clock = new Date(start.getTime() - T_MIN);
  const handler = new TournamentCommandHandler({ store: createPgTournamentEventStore(stack.db), now: () => clock });
  const run = async (command: Parameters<TournamentCommandHandler['handle']>[1]) => {
    const handled = await handler.handle(id, command);
    expect(handled.kind, JSON.stringify(handled)).toBe('appended');
  };
  await run({
    type: 'CreateTournament',
    tournamentId: id,
    createdBy: { id: 'host', name: 'host' },
    terms: terms(start, id),
  });
  for (const p of [cheat, ...others])
    await run({
      type: 'JoinTournament',
      player: { id: p.id, name: p.username, rating: 1500, bot: false },
      passwordHash: null,
      ratedGames: 0,
    });
  clock = start;
  await run({ type: 'StartTournament' });
  for (const [i, p] of others.entries()) {
    clock = new Date(start.getTime() + (i + 1) * 5 * T_MIN);
    const gameId = `${id}g${i}`;
    await run({ type: 'PairPlayers', pairings: [{ gameId, sente: cheat.id, gote: p.id }] });
    clock = new Date(clock.getTime() + 2 * T_MIN);
    await run({ type: 'ScoreGame', gameId, winner: 'sente', plies: 60 });
  }
  if (finish) {
    clock = new Date(start.getTime() + 61 * T_MIN);
    await run({ type: 'FinishTournament' });
  }
}

const standings = async (id: string) =>
  (
    await sql<{ player_id: string; rank: number; score: number }>`
      select player_id, score,
        row_number() over (order by score desc, tiebreak desc, entered)::int as rank
      from tournament_players where tournament_id = ${id} order by rank`.execute(stack.db)
  ).rows;
const winnerOf = async (id: string) =>
  (await sql<{ winner_id: string | null }>`select winner_id from tournaments where id = ${id}`.execute(stack.db))
    .rows[0]?.winner_id;
const allTournamentRows = async () => ({
  tournaments: (await sql`select * from tournaments order by id`.execute(stack.db)).rows,
  players: (await sql`select * from tournament_players order by tournament_id, player_id`.execute(stack.db)).rows,
  pairings: (await sql`select * from tournament_pairings order by game_id`.execute(stack.db)).rows,
});

describe('a marked account and tournaments', () => {
  test('is taken out of running and recent tournaments, its opponents credited, older results left, rebuilt alike', async () => {
    const ip = '192.0.2.50';
    const cheat = await accountFrom(ip, 'Cheat');
    const a = await accountFrom('192.0.2.51', 'Anna');
    const b = await accountFrom('192.0.2.52', 'Bert');
    const now = Date.now();
    await arena('fpRunning', new Date(now - 30 * T_MIN), cheat, [a, b], false);
    await arena('fpRecent', new Date(now - 3 * DAY), cheat, [a, b], true);
    await arena('fpOld', new Date(now - 20 * DAY), cheat, [a, b], true);
    // one still to start: the cheater has joined it
    let clock = new Date(now);
    const handler = new TournamentCommandHandler({ store: createPgTournamentEventStore(stack.db), now: () => clock });
    await handler.handle('fpNext', {
      type: 'CreateTournament',
      tournamentId: 'fpNext',
      createdBy: { id: 'host', name: 'host' },
      terms: terms(new Date(now + 60 * T_MIN), 'fpNext'),
    });
    const join = await call(stack.app, 'POST', '/api/tournament/fpNext/join', {}, bearer(cheat.token));
    expect(join.status, JSON.stringify(join.body)).toBe(200);
    clock = new Date(now + T_MIN);

    // the running arena's and the recent one's leader is screened (lila irwin: the top places)
    expect(await tournamentLeaders(stack.db, new Date(now - 14 * DAY))).toEqual([cheat.id]);
    const why = await screenedPlayers(stack.db, new Date(), DEFAULT_SELECTION);
    expect(why.get(cheat.id)).toBe('tournament');
    expect((await standings('fpRunning')).map((r) => r.player_id)[0]).toBe(cheat.id);
    expect(await winnerOf('fpRecent')).toBe(cheat.id);

    // the mark: out of the running, the recent and the coming tournaments
    const marked = await call(
      stack.app,
      'POST',
      `/api/mod/${cheat.username}/engine`,
      { reason: 'engine' },
      bearer(modToken),
    );
    expect(marked.body).toMatchObject({ marked: true, changed: true, tournaments: 3 });
    const running = await standings('fpRunning');
    expect(running.map((r) => r.player_id)).not.toContain(cheat.id);
    // each lost to the cheater: now a win (lila forfeitByTourAndUserId)
    expect(running.map((r) => r.score)).toEqual([2, 2]);
    const recent = await standings('fpRecent');
    expect(recent.map((r) => [r.rank, r.score])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(recent.map((r) => r.player_id)).not.toContain(cheat.id);
    expect(await winnerOf('fpRecent')).toBeNull();
    expect((await standings('fpNext')).map((r) => r.player_id)).not.toContain(cheat.id);
    // results of more than 14 days ago stay
    expect((await standings('fpOld'))[0]?.player_id).toBe(cheat.id);
    expect(await winnerOf('fpOld')).toBe(cheat.id);
    // no way back in, and marking again takes it out of nothing more
    const again = await call(stack.app, 'POST', '/api/tournament/fpNext/join', {}, bearer(cheat.token));
    expect(again).toMatchObject({ status: 403, body: { code: 'TOURNAMENT_EJECTED' } });
    const remark = await call(
      stack.app,
      'POST',
      `/api/mod/${cheat.username}/engine`,
      { reason: 'engine' },
      bearer(modToken),
    );
    expect(remark.body).toMatchObject({ changed: false, tournaments: 0 });
    // the streams hold the ejections: the projections rebuilt from them are the same
    const live = await allTournamentRows();
    await rebuildTournaments(stack.db);
    expect(await allTournamentRows()).toEqual(live);
  });
});
