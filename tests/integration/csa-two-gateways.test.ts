/**
 * Two gateways behind one address: a CSA player on each. Their pairing, their proposal and
 * their game go through Redis and the game's channel, so neither gateway needs the other's
 * sessions in its memory; and a gateway that dies between claiming an agreed game's start and
 * creating it loses no start: the other player's gateway takes the start over.
 */
import { buildApp, type CsaFrontEnd } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CsaClient, play } from './csa-client.js';
import { type CsaStack, call, silentLogger, startCsaStack, testRedis } from './harness.js';

/** short, so that the test sees a lapsed start claim taken over without waiting long */
const START_LEASE_MS = 1_000;

let stack: CsaStack;
let second: FastifyInstance | null;
let portB: number;

/** Another gateway on the same stores, with its CSA listener. */
async function startSecond(): Promise<[FastifyInstance, number]> {
  let csa: CsaFrontEnd | null = null;
  const app = await buildApp(stack.config, silentLogger(), { bindCsa: (bound) => (csa = bound) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return [app, await (csa as unknown as CsaFrontEnd).listen('127.0.0.1', 0)];
}

beforeAll(async () => {
  stack = await startCsaStack({ csaStartLeaseMs: START_LEASE_MS });
  [second, portB] = await startSecond();
});

afterAll(async () => {
  await second?.close();
  await stack?.close();
});

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('players on two gateways are paired, agree and play one game', async () => {
  const a = await CsaClient.open(stack.csaPort);
  const b = await CsaClient.open(portB);
  expect(await a.login('gw_a', 'across-300-10')).toBe('LOGIN:gw_a OK');
  expect(await b.login('gw_b', 'across-300-10')).toBe('LOGIN:gw_b OK');
  const [sa, sb] = await Promise.all([a.summary(), b.summary()]);
  expect(sa.gameId).toBe(sb.gameId);
  await Promise.all([a.agree(sa.gameId), b.agree(sb.gameId)]);
  const [sente, gote] = sa.yourTurn === '+' ? [a, b] : [b, a];
  await play(sente, gote, '+7776FU');
  await play(gote, sente, '-3334FU');
  sente.send('%TORYO');
  expect(await gote.readUntil('#WIN')).toEqual(['%TORYO', '#RESIGN', '#WIN']);
  expect(await sente.readUntil('#LOSE')).toEqual(['%TORYO', '#RESIGN', '#LOSE']);
  expect((await call(stack.app, 'GET', `/api/games/${sa.gameId}`)).body.result.reason).toBe('resignation');
});

test('a player who leaves during the proposal, on the other gateway: REJECT by that player', async () => {
  const a = await CsaClient.open(stack.csaPort);
  const b = await CsaClient.open(portB);
  await a.login('gw_c', 'leave-300-10');
  await b.login('gw_d', 'leave-300-10');
  const [sa] = await Promise.all([a.summary(), b.summary()]);
  a.send('AGREE');
  b.close();
  expect(await a.next()).toBe(`REJECT:${sa.gameId} by gw_d`);
});

/** The players' locks, held by the test: a start waits for them in its transaction, before the game exists. */
async function holdPlayers(playerIds: readonly string[]): Promise<{
  starting(): Promise<number[] | null>;
  terminate(pids: readonly number[]): Promise<void>;
  release(): Promise<void>;
}> {
  const locks = new pg.Client({ connectionString: stack.config.databaseUrl });
  await locks.connect();
  for (const id of playerIds) await locks.query('select pg_advisory_lock(hashtextextended($1, 0))', [`player:${id}`]);
  return {
    async starting() {
      const { rows } = await locks.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
         and query like '%pg_advisory_xact_lock%'`,
      );
      return rows.length > 0 ? rows.map((r) => r.pid) : null;
    },
    async terminate(pids) {
      for (const pid of pids) await locks.query('select pg_terminate_backend($1)', [pid]);
    },
    async release() {
      await locks.query('select pg_advisory_unlock_all()');
      await locks.end();
    },
  };
}

/** Two players paired across the gateways, and the shared proposal as the gateways keep it in Redis. */
async function proposedAcross(gameName: string, names: readonly [string, string]) {
  const first = await CsaClient.open(stack.csaPort);
  const other = await CsaClient.open(portB);
  await first.login(names[0], gameName);
  await other.login(names[1], gameName);
  const [summary] = await Promise.all([first.summary(), other.summary()]);
  const redis = testRedis('csa-two-gateways');
  const key = `${stack.config.channelPrefix}csa:proposal:{${summary.gameId}}`; // its hash tag: one slot with its start claim
  const proposal = JSON.parse((await redis.hget(key, 'proposal')) as string);
  const firstSide: string = summary.yourTurn === '+' ? 'sente' : 'gote';
  return {
    first,
    other,
    summary,
    players: [proposal.sente.playerId, proposal.gote.playerId] as string[],
    /** the first player's AGREE, recorded */
    async firstAgreed() {
      first.send('AGREE');
      await until('the first AGREE', async () => redis.hget(key, firstSide));
    },
    close: () => redis.disconnect(),
  };
}

test('two gateways starting one agreed game at once (a slow start taken over): one game, one START each', async () => {
  const paired = await proposedAcross('twice-300-10', ['gw_g', 'gw_h']);
  const { first, other, summary } = paired;
  const held = await holdPlayers(paired.players);
  try {
    await paired.firstAgreed();
    other.send('AGREE');
    // the second gateway's start waits; after the lease the first player's gateway takes it over
    await until('both starts waiting', async () => {
      const pids = await held.starting();
      return pids !== null && pids.length >= 2 ? pids : null;
    });
  } finally {
    await held.release();
    paired.close();
  }
  expect(await first.next(20_000)).toBe(`START:${summary.gameId}`);
  expect(await other.next(20_000)).toBe(`START:${summary.gameId}`);
  // the next line each hears is the first move's echo: no second START, one game
  const [sente, gote] = summary.yourTurn === '+' ? [first, other] : [other, first];
  await play(sente, gote, '+7776FU');
  const view = await call(stack.app, 'GET', `/api/games/${summary.gameId}`);
  expect(view.body).toMatchObject({ status: 'ongoing', moves: ['7g7f'] });
  // gote has not moved: its resignation aborts the game (the ply rule), on both gateways alike
  gote.send('%TORYO');
  await Promise.all([gote.readUntil('#CHUDAN'), sente.readUntil('#CHUDAN')]);
});

test('a gateway that dies between claiming the start and creating the game: the other player gets START all the same', async () => {
  const gateway = second as FastifyInstance;
  const paired = await proposedAcross('lost-300-10', ['gw_e', 'gw_f']);
  const { first: survivor, other: doomed, summary } = paired;
  const held = await holdPlayers(paired.players);
  try {
    await paired.firstAgreed();
    doomed.send('AGREE');
    await until('the start waiting for the players', held.starting);
    // the gateway goes: its player's connection is closed; its start fails where it stands
    const closing = gateway.close();
    second = null;
    await doomed.closed;
    await held.terminate((await held.starting()) ?? []);
    await closing;
  } finally {
    await held.release();
    paired.close();
  }

  // the survivor's gateway takes the lapsed claim over and starts the game
  expect(await survivor.next(20_000)).toBe(`START:${summary.gameId}`);
  const view = await call(stack.app, 'GET', `/api/games/${summary.gameId}`);
  expect(view.status).toBe(200);
  expect(view.body.status).toBe('ongoing');
  expect([view.body.players.sente.name, view.body.players.gote.name].sort()).toEqual(['gw_e', 'gw_f']);
  // the player whose gateway died plays no more: as a client that left, it loses on time
  survivor.close();
});
