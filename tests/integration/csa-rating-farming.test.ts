/**
 * Rating farming over the CSA protocol: two accounts with trips, the same game name, a
 * `%TORYO` before anyone moved. The ply rule makes it an abort (`#CHUDAN` to both, no
 * rating); past RATED_GAMES_PER_PAIR_PER_DAY the pair's games are played casual, since the
 * Game_Summary has no word for a refusal.
 */
import { loadConfig } from '@shogi/gateway';
import { catchUp } from '@shogi/store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pairedGame } from './csa-client.js';
import { bearer, type CsaStack, call, NO_LIMIT, startCsaStack } from './harness.js';

const PAIR_CAP = 2;
let stack: CsaStack;

beforeAll(async () => {
  stack = await startCsaStack({
    rateLimits: { ...loadConfig({}).rateLimits, auth: NO_LIMIT, guests: NO_LIMIT },
    ratedGamesPerPairPerDay: PAIR_CAP,
  });
});
afterAll(async () => {
  await stack?.close();
});

async function tripOf(username: string): Promise<{ id: string; trip: string }> {
  const password = `pw-${username}-long-enough`;
  const created = await call(stack.app, 'POST', '/api/accounts', { username, password });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const session = await call(stack.app, 'POST', '/api/session', { username, password });
  const made = await call(
    stack.app,
    'POST',
    '/api/tokens',
    { name: 'engine', scopes: ['csa:play'] },
    bearer(session.body.token),
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: created.body.id, trip: made.body.token };
}

describe('CSA: the two-account loop', () => {
  test('%TORYO before anyone moved is #CHUDAN to both and rates nothing; past the pair cap the games are casual', async () => {
    const a = await tripOf('farm_csa_a');
    const b = await tripOf('farm_csa_b');
    const rated: boolean[] = [];
    for (let i = 0; i < PAIR_CAP + 1; i++) {
      const name = `farm-300-10-${i}`;
      const { sente, gote, gameId } = await pairedGame(stack.csaPort, ['farm_csa_a', 'farm_csa_b'], name, [
        `${name},${a.trip}`,
        `${name},${b.trip}`,
      ]);
      sente.send('%TORYO');
      const [seen, other] = await Promise.all([sente.readUntil('#CHUDAN'), gote.readUntil('#CHUDAN')]);
      // nothing claims a result: no #RESIGN, #WIN or #LOSE
      for (const lines of [seen, other]) expect(lines.filter((l) => /^#(RESIGN|WIN|LOSE)$/.test(l))).toEqual([]);
      const view = await call(stack.app, 'GET', `/api/games/${gameId}`);
      expect(view.body).toMatchObject({ status: 'ended', result: { winner: null, reason: 'abort' } });
      rated.push(view.body.rated as boolean);
      sente.close();
      gote.close();
    }
    expect(rated).toEqual([...Array(PAIR_CAP).fill(true), false]);
    await catchUp(stack.db);
    const history = await sql<{ n: string }>`
      select count(*) as n from rating_history where player_id in (${a.id}, ${b.id})`.execute(stack.db);
    expect(Number(history.rows[0]?.n)).toBe(0);
  });
});
