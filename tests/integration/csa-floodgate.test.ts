/**
 * Floodgate-style rounds: players logged in with a `floodgate-` game name wait for the
 * scheduled round of their game name (here every few seconds), where the waiting players are
 * paired; an odd one waits for the next round.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, type Summary } from './csa-client.js';
import { type CsaStack, call, startCsaStack } from './harness.js';

const ROUND_MS = 3000;
let stack: CsaStack;
let port: number;

beforeAll(async () => {
  stack = await startCsaStack({
    csaFloodgateIntervalMs: 3_600_000,
    csaFloodgateSchedule: { 'floodgate-60-0': ROUND_MS },
  });
  port = stack.csaPort;
});

afterAll(async () => {
  await stack?.close();
});

/** Waits until just after a round, so that players logging in now all wait for the next one. */
async function afterRound(): Promise<number> {
  await new Promise((r) => setTimeout(r, ROUND_MS - (Date.now() % ROUND_MS) + 150));
  return Math.ceil(Date.now() / ROUND_MS) * ROUND_MS;
}

async function waiting(names: readonly string[]): Promise<CsaClient[]> {
  return Promise.all(
    names.map(async (name) => {
      const client = await CsaClient.open(port);
      expect(await client.login(name, 'floodgate-60-0')).toBe(`LOGIN:${name} OK`);
      return client;
    }),
  );
}

describe('Floodgate rounds', () => {
  test('four waiting players are paired at the round, not before, into two games', async () => {
    const round = await afterRound();
    const clients = await waiting(['fg1', 'fg2', 'fg3', 'fg4']);
    // 1. nobody is paired at once, though they share a game name
    await new Promise((r) => setTimeout(r, Math.max(0, round - Date.now() - 300)));
    expect(clients.flatMap((c) => c.drain())).toEqual([]);
    // 2. at the round, each gets a summary: two games, two players each, one sente and one gote
    const summaries = await Promise.all(clients.map((c) => c.summary(ROUND_MS + 5000)));
    expect(Date.now()).toBeGreaterThanOrEqual(round);
    const byGame = new Map<string, Summary[]>();
    for (const s of summaries) byGame.set(s.gameId, [...(byGame.get(s.gameId) ?? []), s]);
    expect(byGame.size).toBe(2);
    for (const pair of byGame.values()) expect(pair.map((s) => s.yourTurn).sort()).toEqual(['+', '-']);
    // 3. both games start once agreed
    await Promise.all(clients.map((c, i) => c.agree((summaries[i] as Summary).gameId)));
    for (const gameId of byGame.keys())
      expect((await call(stack.app, 'GET', `/api/games/${gameId}`)).body.status).toBe('ongoing');
    for (const c of clients) c.close();
  });

  test('an odd player waits for the next round, and is paired there', async () => {
    await afterRound();
    const [a, b, c] = await waiting(['odd1', 'odd2', 'odd3']);
    const clients = [a, b, c] as CsaClient[];
    // the round pairs two of the three; the third hears nothing
    const heard = await Promise.allSettled(clients.map((x) => x.summary(ROUND_MS + 1000)));
    expect(heard.map((h) => h.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const left = clients[heard.findIndex((h) => h.status === 'rejected')] as CsaClient;
    // one more comes, and the next round pairs the two
    const [d] = (await waiting(['odd4'])) as [CsaClient];
    const [sl, sd] = await Promise.all([left.summary(ROUND_MS + 5000), d.summary(ROUND_MS + 5000)]);
    expect(sl.gameId).toBe(sd.gameId);
    for (const x of [...clients, d]) x.close();
  });
});
