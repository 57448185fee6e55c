/**
 * The explorer's routes over app.inject(): records imported from the fixtures (the masters'
 * tree) and a game played here over HTTP, projected, then asked about by position and line;
 * bad words get a 400 with the reason; the routes are limited per address.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@shogi/gateway';
import { catchUp, importRecord } from '@shogi/store';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, NO_LIMIT, newGame, playMove, type Stack, startStack } from './harness.js';

const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');
const FILES = readdirSync(ROOT).sort().slice(0, 10);
const LIMIT = 40;

let stack: Stack;
let live: { gameId: string; sente: string };
const firstMoves = new Map<string, number>();

beforeAll(async () => {
  stack = await startStack({
    config: {
      rateLimits: {
        ...loadConfig({}).rateLimits,
        guests: NO_LIMIT,
        botGames: NO_LIMIT,
        botGamesPerIp: NO_LIMIT,
        lobbyPerIp: NO_LIMIT,
        explorer: { max: LIMIT, windowMs: 60_000 },
      },
    },
  });
  for (const f of FILES) {
    const bytes = readFileSync(join(ROOT, f));
    const r = await importRecord(stack.db, bytes, f);
    if (!r.ok || 'duplicate' in r) throw new Error(`import ${f}`);
    const first = /\n([+-]\d{4}[A-Z]{2})/.exec(bytes.toString('utf8'))?.[1] ?? '';
    firstMoves.set(first, (firstMoves.get(first) ?? 0) + 1);
  }
  const { game, players } = await newGame(stack.app);
  await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
  await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
  expect((await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(players.gote.token))).status).toBe(
    202,
  );
  live = { gameId: game.id, sente: players.sente.id };
  await catchUp(stack.db);
});
afterAll(async () => stack?.close());

test('games played here: the moves from a position, in players’ notation, with the game', async () => {
  const start = await call(stack.app, 'GET', '/api/explorer/games');
  expect(start.status).toBe(200);
  expect(start.body).toMatchObject({ sente: 1, gote: 0, draws: 0, opening: null });
  expect(start.body.moves).toEqual([
    {
      usi: '7g7f',
      notation: '▲７六歩',
      sente: 1,
      gote: 0,
      draws: 0,
      averageRating: null,
      game: expect.objectContaining({ id: live.gameId, usi: '7g7f', winner: 'sente' }),
    },
  ]);
  expect(start.body.recentGames.map((g: { id: string }) => g.id)).toEqual([live.gameId]);
  const after = await call(stack.app, 'GET', '/api/explorer/games?play=7g7f');
  expect(after.body.moves.map((m: { notation: string }) => m.notation)).toEqual(['△３四歩']);
  // the same position from its SFEN
  const sfen = encodeURIComponent('lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2');
  expect((await call(stack.app, 'GET', `/api/explorer/games?sfen=${sfen}`)).body.moves[0].usi).toBe('3c3d');
  // a filter that leaves the game out
  const blitz = await call(stack.app, 'GET', '/api/explorer/games?speeds=blitz&since=2030-01');
  expect(blitz.body).toMatchObject({ sente: 0, gote: 0, draws: 0, moves: [] });
});

test('masters: the imported records only, with their first moves', async () => {
  const masters = await call(stack.app, 'GET', '/api/explorer/masters?topGames=15');
  expect(masters.status).toBe(200);
  const total = masters.body.sente + masters.body.gote + masters.body.draws;
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(FILES.length);
  expect(masters.body.recentGames).toEqual([]);
  const counted = masters.body.moves.reduce(
    (n: number, m: { sente: number; gote: number; draws: number }) => n + m.sente + m.gote + m.draws,
    0,
  );
  expect(counted).toBe(total);
  for (const m of masters.body.moves) expect(m.notation).toMatch(/^▲/);
  // no game played here is among them
  expect(JSON.stringify(masters.body)).not.toContain(live.gameId);
});

test('a player’s explorer: their games as that colour', async () => {
  const mine = await call(stack.app, 'GET', `/api/explorer/player?player=${live.sente}&color=sente`);
  expect(mine.body).toMatchObject({ sente: 1, moves: [expect.objectContaining({ usi: '7g7f' })] });
  const asGote = await call(stack.app, 'GET', `/api/explorer/player?player=${live.sente}&color=gote`);
  expect(asGote.body).toMatchObject({ sente: 0, gote: 0, draws: 0, moves: [] });
});

test('the opening is named from the table by position', async () => {
  const r = await call(stack.app, 'GET', '/api/explorer/games?play=7g7f,3c3d,6g6f,8c8d,2h6h,7a6b');
  expect(r.body.opening).toMatchObject({ ja: '四間飛車', name: 'Fourth File Rook (Shikenbisha)' });
});

test.each([
  ['sfen=lnsgkgsnl%2F9%20b%20-%201', 'INVALID_SFEN', 'sfen'],
  ['play=7g7f,7g7f', 'BAD_REQUEST', 'move 2, 7g7f, is illegal'],
  ['play=7g7x', 'BAD_REQUEST', 'not a USI move'],
  ['speeds=blitz,hyperbullet', 'BAD_REQUEST', 'unknown speed "hyperbullet"'],
  ['ratings=1500', 'BAD_REQUEST', 'no rating group'],
  ['since=2024-05&until=2024-01', 'BAD_REQUEST', 'since is after until'],
  ['since=2024-13', 'BAD_REQUEST', 'since: not a month'],
  ['moves=99', 'BAD_REQUEST', 'moves must be'],
])('%s: 400 %s with the reason', async (query, code, reason) => {
  const r = await call(stack.app, 'GET', `/api/explorer/games?${query}`);
  expect(r.status).toBe(400);
  expect(r.body.code).toBe(code);
  expect(r.body.detail).toContain(reason);
});

test('limited per address: 429 past the limit', async () => {
  let status = 200;
  for (let i = 0; i < LIMIT + 1 && status !== 429; i++)
    status = (await call(stack.app, 'GET', '/api/explorer/masters')).status;
  expect(status).toBe(429);
});
