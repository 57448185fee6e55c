/**
 * Rating farming, tried as an attacker would: two accounts of one person, one challenging
 * rated, the other accepting and resigning before anyone moved, game after game, from one
 * address and over many personal tokens. The ply rule makes every such game an abort (no
 * rating moves), the lobby limits count per account and per address (tokens do not multiply
 * them), and one pair's rated games a day are capped (RATED_PAIR_LIMIT, casual still open).
 */
import { randomBytes } from 'node:crypto';
import { BotRegistry, loadConfig } from '@shogi/gateway';
import { catchUp } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
let app: FastifyInstance;
let botId: string;

const PAIR_CAP = 4;
const LOBBY_PER_ACCOUNT = 12;
const LOBBY_PER_ADDRESS = 20;
const BOT_GAMES_PER_ACCOUNT = 2;
/** the analysis and import limits of this file */
const PER_ACCOUNT = 3;
const bullet = { kind: 'fischer', mainSeconds: 60, incrementSeconds: 0 } as const;

beforeAll(async () => {
  const bots = new BotRegistry();
  stack = await startStack({
    extras: { bots },
    config: {
      ratedGamesPerPairPerDay: PAIR_CAP,
      rateLimits: {
        ...loadConfig({}).rateLimits,
        guests: { max: 0, windowMs: 60_000 },
        lobby: { max: LOBBY_PER_ACCOUNT, windowMs: 60_000 },
        lobbyPerIp: { max: LOBBY_PER_ADDRESS, windowMs: 60_000 },
        botGames: { max: BOT_GAMES_PER_ACCOUNT, windowMs: 60_000 },
        botGamesPerIp: { max: 0, windowMs: 60_000 },
        analysis: { max: PER_ACCOUNT, windowMs: 60_000 },
        imports: { max: PER_ACCOUNT, windowMs: 60_000 },
      },
    },
  });
  app = stack.app;
  // a bot that only takes the games it is given: the limits are the gateway's
  const player = await req('POST', '/api/players', { body: { name: 'quiet-bot' }, ip: '192.0.2.250' });
  botId = player.body.id;
  bots.add({ id: botId, name: 'quiet-bot', join: () => undefined });
});
afterAll(async () => {
  await stack?.close();
});

interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
  readonly body: any;
  readonly retryAfter: string | undefined;
}

async function req(
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string | undefined; body?: unknown; ip?: string } = {},
): Promise<Answer> {
  const res = await app.inject({
    method,
    url,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
  const retry = res.headers['retry-after'];
  return {
    status: res.statusCode,
    body: res.body === '' ? null : JSON.parse(res.body),
    retryAfter: retry === undefined ? undefined : String(retry),
  };
}

/** An account (registered from its own address) with `n` personal tokens of the play scope. */
async function account(n: number): Promise<{ id: string; username: string; tokens: string[] }> {
  const username = `farm_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const ip = `192.0.2.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
  const made = await req('POST', '/api/accounts', { body: { username, password }, ip });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const session = await req('POST', '/api/session', { body: { username, password }, ip });
  expect(session.status).toBe(201);
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = await req('POST', '/api/tokens', {
      token: session.body.token,
      body: { name: `t${i}`, scopes: ['play', 'read'] },
      ip,
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    tokens.push(t.body.token);
  }
  return { id: made.body.id, username, tokens };
}

async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out');
}

const ratingRows = async (ids: readonly string[]) => {
  const history = await sql<{ n: string }>`
    select count(*) as n from rating_history where player_id in (${sql.join(ids)})`.execute(stack.db);
  const ratings = await sql<{ n: string }>`
    select count(*) as n from ratings where player_id in (${sql.join(ids)})`.execute(stack.db);
  return { history: Number(history.rows[0]?.n), ratings: Number(ratings.rows[0]?.n) };
};

describe('the two-account farming loop', () => {
  test('challenge rated, accept, resign before anyone moved, again and again: no rating moves; the pair cap then refuses rated', async () => {
    const farmer = await account(5);
    const feeder = await account(5);
    const ip = '198.51.100.50';
    const games: string[] = [];
    for (let i = 0; i < PAIR_CAP; i++) {
      const challenge = await req('POST', '/api/challenges', {
        token: farmer.tokens[i % 5],
        body: { opponent: feeder.username, timeControl: bullet, rated: true },
        ip,
      });
      expect(challenge.status, JSON.stringify(challenge.body)).toBe(201);
      const accepted = await req('POST', `/api/challenges/${challenge.body.id}/accept`, {
        token: feeder.tokens[i % 5],
        ip,
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const gameId = accepted.body.gameId as string;
      games.push(gameId);
      // the feeder resigns at once, or (every other game) after the farmer's side made the first move
      const game = await req('GET', `/api/games/${gameId}`);
      expect(game.body.rated).toBe(true);
      if (i % 2 === 1) {
        const first = game.body.players.sente.id === farmer.id ? farmer : feeder;
        const moved = await req('POST', `/api/games/${gameId}/moves`, {
          token: first.tokens[0],
          body: { usi: '7g7f', ply: 0 },
          ip,
        });
        expect(moved.status, JSON.stringify(moved.body)).toBe(202);
        await until(async () => (await req('GET', `/api/games/${gameId}`)).body.ply === 1);
      }
      const resigned = await req('POST', `/api/games/${gameId}/resign`, { token: feeder.tokens[(i + 1) % 5], ip });
      expect(resigned.status, JSON.stringify(resigned.body)).toBe(202);
      const ended = await req('GET', `/api/games/${gameId}`);
      expect(ended.body.status).toBe('ended');
      expect(ended.body.result).toMatchObject({ winner: null, reason: 'abort' });
    }

    // the projection has read every game: none of them rated, both players still unrated (1500)
    await catchUp(stack.db);
    const finished = await sql<{ n: string }>`
      select count(*) as n from finished_games where game_id in (${sql.join(games)})`.execute(stack.db);
    expect(Number(finished.rows[0]?.n)).toBe(games.length);
    expect(await ratingRows([farmer.id, feeder.id])).toEqual({ history: 0, ratings: 0 });
    for (const p of [farmer, feeder]) {
      const profile = await req('GET', `/api/players/${p.id}`);
      expect(profile.status).toBe(200);
      expect(profile.body.ratings).toEqual([]);
    }

    // the pair has started PAIR_CAP rated games today: a rated challenge, from any token, and a
    // rated rematch are refused; a casual game is still theirs to play
    const refused = await req('POST', '/api/challenges', {
      token: farmer.tokens[4],
      body: { opponent: feeder.username, timeControl: bullet, rated: true },
      ip,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('RATED_PAIR_LIMIT');
    const rematch = await req('POST', `/api/games/${games[0]}/rematch`, { token: feeder.tokens[2], ip });
    expect(rematch.status).toBe(409);
    expect(rematch.body.code).toBe('RATED_PAIR_LIMIT');
    const casual = await req('POST', '/api/challenges', {
      token: farmer.tokens[3],
      body: { opponent: feeder.username, timeControl: bullet, rated: false },
      ip,
    });
    expect(casual.status, JSON.stringify(casual.body)).toBe(201);
  });

  test('a rated challenge made before the pair reached the cap is refused at its acceptance', async () => {
    const a = await account(1);
    const b = await account(1);
    const pending: string[] = [];
    for (let i = 0; i <= PAIR_CAP; i++) {
      const c = await req('POST', '/api/challenges', {
        token: a.tokens[0],
        body: { opponent: b.username, timeControl: { kind: 'correspondence', daysPerMove: 3 }, rated: true },
        ip: '198.51.100.60',
      });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      pending.push(c.body.id);
    }
    const answers = await Promise.all(
      pending.map((id) => req('POST', `/api/challenges/${id}/accept`, { token: b.tokens[0], ip: '198.51.100.61' })),
    );
    // accepted concurrently: the count under both players' locks lets exactly PAIR_CAP through
    expect(answers.filter((r) => r.status === 200)).toHaveLength(PAIR_CAP);
    const others = answers.filter((r) => r.status !== 200);
    expect(others.map((r) => [r.status, r.body.code])).toEqual([[409, 'RATED_PAIR_LIMIT']]);
  });

  test('two rated seeks of the pair at the cap are not paired with each other', async () => {
    const a = await account(1);
    const b = await account(1);
    const terms = { timeControl: { kind: 'correspondence', daysPerMove: 5 }, rated: true };
    for (let i = 0; i < PAIR_CAP; i++) {
      const c = await req('POST', '/api/challenges', {
        token: a.tokens[0],
        body: { opponent: b.username, ...terms },
        ip: '198.51.100.70',
      });
      const ok = await req('POST', `/api/challenges/${c.body.id}/accept`, { token: b.tokens[0], ip: '198.51.100.71' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    }
    const seekA = await req('POST', '/api/seeks', { token: a.tokens[0], body: terms, ip: '198.51.100.70' });
    expect(seekA.status, JSON.stringify(seekA.body)).toBe(201);
    const seekB = await req('POST', '/api/seeks', { token: b.tokens[0], body: terms, ip: '198.51.100.71' });
    expect(seekB.status, JSON.stringify(seekB.body)).toBe(201);
    expect(seekB.body.status).toBe('open');
    expect(seekB.body.gameId ?? null).toBeNull();
  });
});

describe('lobby limits count per account and per address, never per token', () => {
  test('five tokens of one account share one count: past it, a fresh token is 429 with Retry-After', async () => {
    const one = await account(5);
    const ticket = (i: number) => req('POST', '/api/socket-ticket', { token: one.tokens[i % 5], ip: '203.0.113.10' });
    for (let i = 0; i < LOBBY_PER_ACCOUNT; i++) expect((await ticket(i)).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const refused = await ticket(i);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // the same account from another address is the same account
    expect((await req('POST', '/api/socket-ticket', { token: one.tokens[0], ip: '203.0.113.11' })).status).toBe(429);
  });

  test('accounts behind one address share its larger count; another address is not held back', async () => {
    const [a, b, c] = [await account(1), await account(1), await account(1)];
    const ip = '203.0.113.20';
    const ticket = (token: string, from = ip) => req('POST', '/api/socket-ticket', { token, ip: from });
    for (let i = 0; i < LOBBY_PER_ACCOUNT; i++) expect((await ticket(a.tokens[0] as string)).status).toBe(201);
    for (let i = LOBBY_PER_ACCOUNT; i < LOBBY_PER_ADDRESS; i++)
      expect((await ticket(b.tokens[0] as string)).status).toBe(201);
    const refused = await ticket(c.tokens[0] as string);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // an IPv6 client counts by its /64 like any other limit by address; c elsewhere is free
    expect((await ticket(c.tokens[0] as string, '2001:db8:5:6::1')).status).toBe(201);
  });
});

describe('bot games count per account, never per token', () => {
  test('a third bot game of one account is 429, whichever of its tokens asks', async () => {
    const one = await account(3);
    const botGame = (token: string | undefined) =>
      req('POST', `/api/bots/${botId}/games`, { token, body: {}, ip: '203.0.113.30' });
    for (let i = 0; i < BOT_GAMES_PER_ACCOUNT; i++) expect((await botGame(one.tokens[i])).status).toBe(201);
    const refused = await botGame(one.tokens[2]);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});

describe('analysis requests and imports count per account, never per token', () => {
  test.each([
    ['analysis requests', (token: string) => req('POST', '/api/games/no-such-game/analysis', { token, body: {} })],
    ['imports', (token: string) => req('POST', '/api/import', { token, body: { record: 'not a record' } })],
  ])('%s: past the count, every token of the account is 429', async (_, ask) => {
    const one = await account(PER_ACCOUNT + 1);
    // each token asks once: the account's count, whatever the answer
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await ask(one.tokens[i] as string)).status).not.toBe(429);
    const refused = await ask(one.tokens[PER_ACCOUNT] as string);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
