/**
 * Imported games apart from played ones in the statistics: a guest's import of a thousand
 * tiny records (the default IMPORT_MAX_RECORDS), every one a gote win, leaves the site's
 * results, endings, lengths, openings and leaderboard as the played games made them under
 * the default source=played; source=imported shows the import alone and source=all both.
 * One record more than the default cap is refused whole.
 */
import { catchUp } from '@shogi/store';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, newGame, type Stack, startStack } from './harness.js';

const CAP = 1000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => stack?.close());

/** `n` records no one imported before, each won by gote: sente opens, gote answers, sente resigns. */
const tinyRecords = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `V2.2\nN+${tag}-${i}\nN-${tag}-gote\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n`).join(
    '/\n',
  );

const STATS = [
  '/api/stats/results',
  '/api/stats/endings',
  '/api/stats/lengths',
  '/api/stats/openings',
  '/api/stats/openings?moves=7g7f',
  '/api/stats/score-by-rating-difference',
  '/api/leaderboards/blitz',
];

async function read(url: string) {
  const res = await call(stack.app, 'GET', url);
  expect(res.status, url).toBe(200);
  return res.body;
}
const withSource = (url: string, source: string) => `${url}${url.includes('?') ? '&' : '?'}source=${source}`;

test('a large import leaves the site-wide statistics as played games made them; source=imported|all show it', async () => {
  // a played game, resigned by gote
  const { game, players } = await newGame(stack.app);
  expect((await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(players.gote.token))).status).toBe(
    202,
  );
  await catchUp(stack.db);
  const before = await Promise.all(STATS.map(read));
  // (resigned before any move: a win, or an abort where a game must have moves to count)
  expect(before[0].games + before[0].noResult).toBe(1);
  expect(before[0].goteWins).toBe(0);

  const guest = (await call(stack.app, 'POST', '/api/players', { name: 'bulk' })).body as { token: string };
  const post = (text: string) =>
    stack.app.inject({
      method: 'POST',
      url: '/api/import',
      headers: { 'content-type': 'text/plain', ...bearer(guest.token) },
      payload: text,
    });
  // one record past the default cap: refused whole
  const over = await post(tinyRecords(CAP + 1, 'over'));
  expect(over.statusCode).toBe(413);
  expect(JSON.parse(over.body).code).toBe('TOO_MANY_RECORDS');
  const imported = await post(tinyRecords(CAP, 'bulk'));
  expect(imported.statusCode).toBe(201);
  expect(JSON.parse(imported.body).games).toHaveLength(CAP);
  await catchUp(stack.db);

  // the default and source=played: as before the import
  expect(await Promise.all(STATS.map(read))).toEqual(before);
  expect(await Promise.all(STATS.map((url) => read(withSource(url, 'played'))))).toEqual(before);
  // source=imported: the import alone; source=all: both
  expect(await read('/api/stats/results?source=imported')).toMatchObject({ games: CAP, goteWins: CAP, gotePct: 100 });
  const all = await read('/api/stats/results?source=all');
  expect({ games: all.games + all.noResult, goteWins: all.goteWins }).toEqual({ games: CAP + 1, goteWins: CAP });
  const endings = await read('/api/stats/endings?source=imported');
  expect(endings.reasons).toEqual([expect.objectContaining({ reason: 'resignation', games: CAP })]);
  expect(await read('/api/stats/lengths?source=imported')).toEqual({
    bucketSize: 10,
    buckets: [{ from: 0, games: CAP }],
  });
  expect((await read('/api/stats/openings?source=imported')).games).toBe(CAP);
  expect((await read('/api/stats/openings?moves=7g7f&source=all')).games).toBe(CAP);
  // a player's own imported games: under imported, not played
  const player = 'imported:bulk-gote';
  expect((await read(`/api/stats/players/${player}`)).total).toEqual({ wins: 0, losses: 0, draws: 0, noResult: 0 });
  expect((await read(`/api/stats/players/${player}?source=imported`)).total).toMatchObject({ wins: CAP });
  expect((await read(`/api/stats/players/${player}?source=all`)).total).toMatchObject({ wins: CAP });
  // imports are never rated: no rating moved, nothing to rank, under any source
  const rated = await stack.db
    .withTables<{ finished_games: { game_id: string; imported: boolean; rated: boolean } }>()
    .selectFrom('finished_games')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('imported', '=', true)
    .where('rated', '=', true)
    .executeTakeFirstOrThrow();
  expect(Number(rated.n)).toBe(0);
  const history = await stack.db
    .withTables<{ rating_history: { game_id: string } }>()
    .selectFrom('rating_history')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('game_id', 'like', 'imp-%')
    .executeTakeFirstOrThrow();
  expect(Number(history.n)).toBe(0);
  expect((await read('/api/leaderboards/blitz?source=imported')).players).toEqual([]);
  expect(await read('/api/leaderboards/blitz?source=all')).toEqual(before[6]);
});
