/**
 * A Swiss's page in Chromium: three accounts joined over the API, a visitor, and a fourth
 * account who joins with the page's button between the rounds. At the start the round is paired (a game and a bye); the visitor sees the
 * round with its pairing, then its result, the standings with their tie-break columns, and,
 * once the organiser dates the next round, the countdown to it. A screenshot at 1366×900 goes
 * to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;

beforeAll(async () => {
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, config: { tournamentTickMs: 200 }, extras: { web: { root: webRoot } } });
  chromium = await openChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await chromium?.close();
  await bounded('stack', stack?.close(), 30_000);
  removeWebClient(webRoot);
});

afterEach(() => {
  expect(chromium.takeReports()).toEqual({ violations: [], console: [], unprotected: [] });
});

const url = (path: string) => `${stack.baseUrl}${path}`;
const DESKTOP = { width: 1366, height: 900 };
/** The page reads the Swiss every 2 s. */
const T = { timeout: 6000 };

interface Account {
  readonly id: string;
  readonly name: string;
  readonly token: string;
  readonly account: true;
}

const post = (path: string, body: unknown, token?: string) =>
  fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

async function account(username: string): Promise<Account> {
  expect((await post('/api/accounts', { username, password: 'correct horse' })).status).toBe(201);
  const session = (await (await post('/api/session', { username, password: 'correct horse' })).json()) as {
    token: string;
    player: { id: string; name: string };
  };
  return { ...session.player, token: session.token, account: true };
}

async function open(who: Account | null, path: string): Promise<Page> {
  const page = await chromium.contextAs(who, DESKTOP.width, false);
  await page.setViewportSize(DESKTOP);
  await page.goto(url(path));
  return page;
}

test('a Swiss page: the round, its result, the standings with tie-breaks, the countdown', async () => {
  const [ann, ben, cat] = [await account('swann'), await account('swben'), await account('swcat')];
  const created = await post(
    '/api/swiss',
    {
      name: 'Club Swiss',
      'clock.limit': 60,
      nbRounds: 3,
      roundInterval: 99_999_999,
      startsAt: Date.now() + 5000,
      rated: false,
    },
    ann.token,
  );
  expect(created.status).toBe(200);
  const id = ((await created.json()) as { id: string }).id;

  for (const p of [ann, ben, cat]) expect((await post(`/api/swiss/${id}/join`, {}, p.token)).status).toBe(200);
  const v = await open(null, `/tournament/${id}`);
  await expect.poll(() => v.locator('h1').textContent(), T).toBe('Club Swiss');
  await expect.poll(() => v.locator('.countdown').textContent(), T).toMatch(/^Starts in 0:0\d$|^Round 1 of 3/);
  await expect.poll(() => v.locator('.tournament-terms').textContent(), T).toMatch(/Swiss, 3 rounds · 3 players/);
  // round 1: one game, one bye
  await expect.poll(() => v.locator('.swiss-round h3').first().textContent(), { timeout: 15_000 }).toBe('Round 1');
  await expect.poll(() => v.locator('.swiss-round li').count(), T).toBe(1);
  await expect.poll(() => v.locator('.countdown').textContent(), T).toBe('Round 1 of 3 is being played');
  const game = (await v.locator('.swiss-round li a').getAttribute('href'))?.split('/')[2] as string;
  const view = await stack.api.game(game);
  const players = [ann, ben, cat];
  const sente = players.find((p) => p.id === view.players.sente.id) as Account;
  const gote = players.find((p) => p.id === view.players.gote.id) as Account;
  expect((await stack.api.submitMove(game, sente.token, { usi: '7g7f', ply: 0 })).status).toBe(202);
  await expect.poll(async () => (await stack.api.game(game)).ply, { timeout: 10_000 }).toBe(1);
  expect((await stack.api.submitMove(game, gote.token, { usi: '3c3d', ply: 1 })).status).toBe(202);
  await expect.poll(async () => (await stack.api.game(game)).ply, { timeout: 10_000 }).toBe(2);
  expect((await post(`/api/games/${game}/resign`, {}, gote.token)).status).toBe(202);

  // the result, and the standings: the winner and the bye on a point each, with their tie-breaks
  await expect.poll(() => v.locator('.swiss-round li .result').textContent(), { timeout: 15_000 }).toBe(' 1–0');
  await expect
    .poll(() => v.locator('.swiss-standings thead th').allTextContents(), T)
    .toEqual(['#', 'Player', 'Points', 'SB', 'BH-1', 'BH']);
  await expect
    .poll(async () => (await v.locator('.swiss-standings tbody td.score').allTextContents()).join(' '), T)
    .toBe('1 1 0');
  const loserRow = v.locator(`.swiss-standings tr[data-player="${gote.id}"] td`);
  await expect.poll(() => loserRow.nth(2).textContent(), T).toBe('0');
  await expect.poll(() => v.locator('.countdown').textContent(), T).toBe('Round 2 starts when the organiser pairs it');

  // the organiser dates round 2: the countdown runs to it
  expect((await post(`/api/swiss/${id}/schedule-next-round`, { date: Date.now() + 125_000 }, ann.token)).status).toBe(
    200,
  );
  await expect.poll(() => v.locator('.countdown').textContent(), T).toMatch(/^Round 2 in 2:0\d$/);
  await v.screenshot({ path: join(ARTIFACTS, 'swiss.png'), fullPage: true });

  // a fourth account joins with the page's button between the rounds: in the standings at once
  const dan = await account('swdan');
  const d = await open(dan, `/tournament/${id}`);
  await expect.poll(() => d.locator('#swiss-join').isVisible(), T).toBe(true);
  await d.click('#swiss-join');
  await expect.poll(() => d.locator('.standings tr.me td.name a').textContent(), T).toBe('swdan');
  await d.close();
  expect((await post(`/api/swiss/${id}/terminate`, {}, ann.token)).status).toBe(200);
  await expect.poll(() => v.locator('.countdown').textContent(), T).toBe('Finished after 1 round');
  await v.close();
}, 90_000);
