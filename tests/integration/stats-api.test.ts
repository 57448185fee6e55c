/**
 * The statistics and records routes over app.inject(): records imported from the fixtures
 * and a live game resigned over HTTP, projected by the stats projector, then read back as
 * statistics, as KIF/CSA/SFEN records (parsed again by the rules package), and as NDJSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRecord, parseCsa, parseKif, replayMoves, START_SFEN } from '@shogi/rules';
import { catchUp, importRecord } from '@shogi/store';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, newGame, playMove, type Stack, startStack } from './harness.js';

const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');
const FILES = readdirSync(ROOT).sort().slice(0, 12);

let stack: Stack;
const imported: { id: string; file: string }[] = [];
let live: { gameId: string; sente: string };

beforeAll(async () => {
  // a worker gives the live game's two first moves their verdicts
  stack = await startStack();
  for (const f of FILES) {
    const r = await importRecord(stack.db, readFileSync(join(ROOT, f)), f);
    if (!r.ok || 'duplicate' in r) throw new Error(`import ${f}`);
    imported.push({ id: r.gameId, file: f });
  }
  const { game, players } = await newGame(stack.app);
  // both sides move first: a resignation before that would be an abort (the ply rule)
  await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
  await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
  const resigned = await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(players.gote.token));
  expect(resigned.status).toBe(202);
  live = { gameId: game.id, sente: players.sente.id };
  await catchUp(stack.db);
});
afterAll(async () => stack?.close());

/** The answer's text in the charset its Content-Type names (a .kif is Shift_JIS). */
const get = async (url: string) => {
  const res = await stack.app.inject({ method: 'GET', url });
  const type = res.headers['content-type'];
  const charset = /charset=([^;]+)/.exec(String(type))?.[1] ?? 'utf-8';
  return { status: res.statusCode, text: new TextDecoder(charset).decode(res.rawPayload), type };
};

describe('GET /api/stats/*', () => {
  test('results: counts and percentages, filtered', async () => {
    // by default the games played here: the live game, not the imported records
    const played = await call(stack.app, 'GET', '/api/stats/results');
    expect(played.status).toBe(200);
    expect(played.body.games + played.body.noResult).toBe(1);
    expect((await call(stack.app, 'GET', '/api/stats/results?source=played')).body).toEqual(played.body);
    const imported = await call(stack.app, 'GET', '/api/stats/results?source=imported');
    expect(imported.body.games + imported.body.noResult).toBe(FILES.length);
    const all = await call(stack.app, 'GET', '/api/stats/results?source=all');
    expect(all.status).toBe(200);
    expect(all.body.games + all.body.noResult).toBe(FILES.length + 1);
    const may2018 = await call(
      stack.app,
      'GET',
      '/api/stats/results?from=2018-05-01&to=2018-05-31&rated=false&source=imported',
    );
    expect(may2018.body.games + may2018.body.noResult).toBe(FILES.length);
    expect(may2018.body.sentePct + may2018.body.gotePct + may2018.body.drawPct).toBeCloseTo(100, 1);
    const none = await call(stack.app, 'GET', '/api/stats/results?ruleset=jsa');
    expect(none.body).toMatchObject({ games: 0, sentePct: 0 });
  });

  test.each([
    ['/api/stats/results?rated=yes'],
    ['/api/stats/results?from=May'],
    ['/api/stats/results?from=2026-02-30'],
    ['/api/stats/endings?to=2026-13-01'],
    ['/api/stats/lengths?from=2026-00-10'],
    ['/api/stats/results?colour=sente'],
    ['/api/stats/openings?moves=7g7f,zz'],
    ['/api/stats/results?source=everything'],
    ['/api/stats/endings?source=Played'],
    ['/api/stats/openings?source='],
    ['/api/stats/players/someone?source=both'],
    ['/api/stats/players/someone/opponents?source=1'],
    ['/api/stats/score-by-rating-difference?source=imports'],
    ['/api/leaderboards/blitz?source=all,imported'],
  ])('%s is a 400 BAD_REQUEST', async (url) => {
    const r = await call(stack.app, 'GET', url);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
  });

  test('endings, lengths, a player, the opening explorer', async () => {
    const endings = await call(stack.app, 'GET', '/api/stats/endings?source=all');
    const total = endings.body.reasons.reduce(
      (n: number, r: { games: number; noResult: number }) => n + r.games + r.noResult,
      0,
    );
    expect(total).toBe(FILES.length + 1);
    expect(endings.body.reasons.find((r: { reason: string }) => r.reason === 'resignation').games).toBeGreaterThan(0);
    const lengths = await call(stack.app, 'GET', '/api/stats/lengths');
    expect(lengths.body.buckets[0]).toEqual({ from: 0, games: 1 }); // the live game: resigned at ply 2
    const player = await call(stack.app, 'GET', `/api/stats/players/${live.sente}`);
    expect(player.body.byColor.sente).toEqual({ wins: 1, losses: 0, draws: 0, noResult: 0 });
    expect(player.body.streaks).toEqual({ current: { outcome: 'win', games: 1 }, bestWin: 1 });
    // by default the games played here: the live game (two moves) alone; the imported records under imported or all
    expect((await call(stack.app, 'GET', '/api/stats/openings')).body.games).toBe(1);
    const root = await call(stack.app, 'GET', '/api/stats/openings?source=imported');
    expect(root.body.games).toBe(FILES.length);
    expect((await call(stack.app, 'GET', '/api/stats/openings?source=all')).body.games).toBe(FILES.length + 1);
    const first = root.body.next[0];
    const next = await call(stack.app, 'GET', `/api/stats/openings?moves=${first.usi}&source=imported`);
    expect(next.body.games).toBe(first.games);
    expect(next.body.moves).toEqual([first.usi]);
    // by position: the start, and the position after the most played first move
    const start = await call(
      stack.app,
      'GET',
      `/api/stats/openings?sfen=${encodeURIComponent(START_SFEN)}&source=imported`,
    );
    expect(start.body.games).toBe(root.body.games);
    const played = replayMoves(START_SFEN, [first.usi]);
    expect(
      (await call(stack.app, 'GET', `/api/stats/openings?sfen=${encodeURIComponent(played.sfen)}`)).body.games,
    ).toBe(first.usi === '7g7f' ? 1 : 0); // the live game's first move, played here
    const after = await call(
      stack.app,
      'GET',
      `/api/stats/openings?sfen=${encodeURIComponent(played.sfen)}&source=imported`,
    );
    expect(after.body.games).toBe(first.games);
    expect(after.body.next).toEqual(next.body.next);
    const bad = await call(stack.app, 'GET', '/api/stats/openings?sfen=nonsense');
    expect(bad.body.code).toBe('INVALID_SFEN');
    const both = await call(stack.app, 'GET', `/api/stats/openings?moves=7g7f&sfen=${encodeURIComponent(START_SFEN)}`);
    expect(both.status).toBe(400);
  });

  test('the OpenAPI document lists the routes', async () => {
    const doc = await call(stack.app, 'GET', '/docs/json');
    for (const path of ['/api/stats/results', '/api/stats/openings', '/api/games/{id}/record.kif'])
      expect(Object.keys(doc.body.paths)).toContain(path);
  });
});

describe('records out', () => {
  test('an imported game as CSA and KIF parses back to the same moves and players', async () => {
    const { id, file } = imported[0] as { id: string; file: string };
    const original = decodeRecord(readFileSync(join(ROOT, file)), file);
    if (!original.ok) throw new Error('fixture');
    const csa = await get(`/api/games/${id}/record.csa`);
    expect(csa.status).toBe(200);
    expect(csa.type).toMatch(/^text\/plain/);
    const fromCsa = parseCsa(csa.text);
    const kif = await get(`/api/games/${id}/record?format=kif`);
    const fromKif = parseKif(kif.text);
    for (const back of [fromCsa, fromKif]) {
      if (!back.ok) throw new Error(back.error.message);
      expect(back.value.moves).toEqual(original.value.record.moves);
      expect(back.value.players).toEqual(original.value.record.players);
      // a game the board ended by mate is written as 詰み/%TSUMI even when the file said %TORYO
      expect(['toryo', 'tsumi']).toContain(back.value.ending?.kind);
    }
    const sfen = await get(`/api/games/${id}/record.sfen`);
    expect(sfen.text).toBe(`sfen ${original.value.record.sfen} moves ${original.value.record.moves.join(' ')}\n`);
  });

  test('a live game, and an unknown one', async () => {
    const kif = await get(`/api/games/${live.gameId}/record.kif`);
    expect(kif.status).toBe(200);
    // gote resigned after both first moves, with sente to move: 投了 there would say sente resigned
    expect(kif.text).not.toContain('投了');
    expect(kif.text).toContain('resignation by gote while sente was to move: sente wins');
    expect((await get(`/api/games/${live.gameId}.csa`)).text).toContain("'summary:toryo:bob lose:alice win");
    // the same record at /api/games/:id.kif (and .csa, .sfen)
    expect((await get(`/api/games/${live.gameId}.kif`)).text).toBe(kif.text);
    expect((await get(`/api/games/${live.gameId}.csa`)).text).toBe(
      (await get(`/api/games/${live.gameId}/record.csa`)).text,
    );
    expect((await get(`/api/games/${live.gameId}.sfen`)).text).toMatch(/^sfen /);
    expect((await call(stack.app, 'GET', '/api/games/nope.kif')).status).toBe(404);
    const missing = await call(stack.app, 'GET', '/api/games/nope/record.csa');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('GAME_NOT_FOUND');
  });

  test("a player's games as one CSA file", async () => {
    const first = decodeRecord(readFileSync(join(ROOT, FILES[0] as string)));
    if (!first.ok) throw new Error('fixture');
    const player = `imported:${first.value.record.players.sente}`;
    const stats = await call(stack.app, 'GET', `/api/stats/players/${encodeURIComponent(player)}?source=imported`);
    // the player's imported games are not in their played statistics
    const played = await call(stack.app, 'GET', `/api/stats/players/${encodeURIComponent(player)}`);
    expect(played.body.total).toEqual({ wins: 0, losses: 0, draws: 0, noResult: 0 });
    const { wins, losses, draws, noResult } = stats.body.total;
    const res = await get(`/api/players/${encodeURIComponent(player)}/games.csa`);
    expect(res.status).toBe(200);
    const parts = res.text.split(/^\/$/m);
    expect(parts).toHaveLength(wins + losses + draws + noResult);
    for (const part of parts) expect(parseCsa(part).ok).toBe(true);
  });

  test("a player's games as NDJSON, filtered by colour", async () => {
    const res = await get(`/api/players/${encodeURIComponent(live.sente)}/games.ndjson`);
    expect(res.type).toBe('application/x-ndjson');
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ id: live.gameId, result: 'sente', reason: 'resignation', imported: false });
    for (const q of ['color=gote', 'result=loss', 'since=2100-01-01T00:00:00Z']) {
      const none = await get(`/api/players/${encodeURIComponent(live.sente)}/games.ndjson?${q}`);
      expect(none.text).toBe('');
    }
    const won = await get(`/api/players/${encodeURIComponent(live.sente)}/games.ndjson?result=win&color=sente`);
    expect(won.text.trim().split('\n')).toHaveLength(1);
  });
});
