/**
 * Two gateways behind one address: a CSA player on each. Their pairing, their proposal and
 * their game go through Redis and the game's channel, so neither gateway needs the other's
 * sessions in its memory; and a gateway that dies between claiming an agreed game's start and
 * creating it loses no start: the other player's gateway takes the start over.
 */
import { buildApp, type CsaFrontEnd } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CsaClient, play } from './csa-client.js';
import { call, type Stack, silentLogger, startStack } from './harness.js';

/** short, so that the test sees a lapsed start claim taken over without waiting long */
const START_LEASE_MS = 1_000;

let stack: Stack;
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
  stack = await startStack({ listen: true, config: { csaListen: true, csaPort: 0, csaStartLeaseMs: START_LEASE_MS } });
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
  const a = await CsaClient.open(stack.csaPort as number);
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
  const a = await CsaClient.open(stack.csaPort as number);
  const b = await CsaClient.open(portB);
  await a.login('gw_c', 'leave-300-10');
  await b.login('gw_d', 'leave-300-10');
  const [sa] = await Promise.all([a.summary(), b.summary()]);
  a.send('AGREE');
  b.close();
  expect(await a.next()).toBe(`REJECT:${sa.gameId} by gw_d`);
});

test('a gateway that dies between claiming the start and creating the game: the other player gets START all the same', async () => {
  const gateway = second as FastifyInstance;
  const survivor = await CsaClient.open(stack.csaPort as number);
  const doomed = await CsaClient.open(portB);
  await survivor.login('gw_e', 'lost-300-10');
  await doomed.login('gw_f', 'lost-300-10');
  const [summary] = await Promise.all([survivor.summary(), doomed.summary()]);
  const { gameId } = summary;
  // the shared proposal, as the gateways keep it in Redis: its players' ids, then its AGREEs
  const redis = new Redis(stack.config.redisUrl);
  const proposalKey = `${stack.config.channelPrefix}csa:proposal:${gameId}`;
  const proposal = JSON.parse((await redis.hget(proposalKey, 'proposal')) as string);
  const mySide = summary.yourTurn === '+' ? 'sente' : 'gote';

  // the players' locks held here: the start claimed by the doomed gateway waits in its
  // transaction, before the game exists
  const locks = new pg.Client({ connectionString: stack.config.databaseUrl });
  await locks.connect();
  try {
    for (const id of [proposal.sente.playerId, proposal.gote.playerId])
      await locks.query('select pg_advisory_lock(hashtextextended($1, 0))', [`player:${id}`]);
    survivor.send('AGREE');
    await until('the first AGREE', async () => redis.hget(proposalKey, mySide));
    doomed.send('AGREE');
    const waiting = async () => {
      const { rows } = await locks.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
         and query like '%pg_advisory_xact_lock%'`,
      );
      return rows.length > 0 ? rows.map((r) => r.pid) : null;
    };
    await until('the start waiting for the players', waiting);

    // the gateway goes: its player's connection is closed; its start fails where it stands
    const closing = gateway.close();
    second = null;
    await doomed.closed;
    for (const pid of (await waiting()) ?? []) await locks.query('select pg_terminate_backend($1)', [pid]);
    await closing;
  } finally {
    await locks.query('select pg_advisory_unlock_all()');
    await locks.end();
    redis.disconnect();
  }

  // the survivor's gateway takes the lapsed claim over and starts the game
  expect(await survivor.next(20_000)).toBe(`START:${gameId}`);
  const view = await call(stack.app, 'GET', `/api/games/${gameId}`);
  expect(view.status).toBe(200);
  expect(view.body.status).toBe('ongoing');
  expect([view.body.players.sente.name, view.body.players.gote.name].sort()).toEqual(['gw_e', 'gw_f']);
  // the player whose gateway died plays no more: as a client that left, it loses on time
  survivor.close();
});
