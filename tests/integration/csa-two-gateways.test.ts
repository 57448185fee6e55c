/**
 * Two gateways behind one address: a CSA player on each. Their pairing, their proposal and
 * their game go through Redis and the game's channel, so neither gateway needs the other's
 * sessions in its memory.
 */
import { buildApp, type CsaFrontEnd } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CsaClient, play } from './csa-client.js';
import { call, type Stack, silentLogger, startStack } from './harness.js';

let stack: Stack;
let second: FastifyInstance;
let portB: number;

beforeAll(async () => {
  stack = await startStack({ listen: true, config: { csaListen: true, csaPort: 0 } });
  let csa: CsaFrontEnd | null = null;
  second = await buildApp(stack.config, silentLogger(), { bindCsa: (bound) => (csa = bound) });
  await second.listen({ host: '127.0.0.1', port: 0 });
  portB = await (csa as unknown as CsaFrontEnd).listen('127.0.0.1', 0);
});

afterAll(async () => {
  await second?.close();
  await stack?.close();
});

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
