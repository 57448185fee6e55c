/**
 * An arena in Chromium: one account creates it with the form (a password, a start a few
 * seconds away) and joins; another joins on a phone with the password; a visitor follows it
 * from the lobby's panel. Once it starts the director pairs them and each game page opens by
 * itself; the player who moves first berserks, the moves go over the API, the other resigns
 * on the board, and the visitor's standings move without a reload (2 points, the berserk
 * marked on the sheet). Back on the tournament, the next pairing opens the next game.
 * Screenshots at 1366×900 and 390×844 go to test-artifacts/.
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
const PHONE = { width: 390, height: 844 };

interface Account {
  readonly id: string;
  readonly name: string;
  readonly token: string;
  readonly account: true;
}

async function account(username: string): Promise<Account> {
  const post = (path: string, body: unknown) =>
    fetch(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/api/accounts', { username, password: 'correct horse' })).status).toBe(201);
  const session = (await (await post('/api/session', { username, password: 'correct horse' })).json()) as {
    token: string;
    player: { id: string; name: string };
  };
  return { ...session.player, token: session.token, account: true };
}

async function open(who: Account | null, viewport: { width: number; height: number }, path: string): Promise<Page> {
  const page = await chromium.contextAs(who, viewport.width, viewport.width < 600);
  await page.setViewportSize(viewport);
  await page.goto(url(path));
  return page;
}

async function moveOverApi(gameId: string, token: string, usi: string, ply: number): Promise<void> {
  await expect.poll(async () => (await stack.api.game(gameId)).ply, { timeout: 10_000 }).toBe(ply);
  expect((await stack.api.submitMove(gameId, token, { usi, ply })).status, usi).toBe(202);
}

const gameIdOf = (page: Page) => /\/games\/([A-Za-z0-9_-]+)$/.exec(new URL(page.url()).pathname)?.[1] ?? null;

test('two accounts join an arena, are paired, play to a result, and the standings move', async () => {
  const alice = await account('alice');
  const bob = await account('bob');

  // 1. a guest is told that tournaments need an account
  const visitor = await open(null, DESKTOP, '/tournaments');
  await expect.poll(() => visitor.locator('#tournament-guest').textContent()).toMatch(/Log in with an account/);

  // 2. alice creates an arena with the form: 1+0, a password, starting in a few seconds
  const a = await open(alice, DESKTOP, '/tournaments');
  await a.fill('#tournament-create input[name="name"]', 'Evening arena');
  await a.fill('#tournament-create input[name="clockTime"]', '1');
  await a.fill('#tournament-create input[name="clockIncrement"]', '0');
  await a.fill('#tournament-create input[name="minutes"]', '20');
  await a.fill('#tournament-create input[name="waitMinutes"]', '0.15');
  await a.fill('#tournament-create input[name="password"]', 'koma');
  await a.screenshot({ path: join(ARTIFACTS, 'tournament-create.png'), fullPage: true });
  await a.click('#tournament-create button[type="submit"]');
  await a.waitForURL(/\/tournament\/[A-Za-z0-9]+$/);
  const tournamentId = new URL(a.url()).pathname.split('/')[2] as string;
  await expect.poll(() => a.locator('h1').textContent()).toBe('Evening arena');
  await expect.poll(() => a.locator('.countdown').textContent()).toMatch(/^Starts in 0:\d\d$/);
  await a.fill('.tournament-actions input[name="password"]', 'koma');
  await a.click('#tournament-join');
  await expect.poll(() => a.locator('.standings tr.me td.name a').textContent()).toBe('alice');

  // 3. the visitor finds it in the lobby's panel and follows it
  await visitor.goto(url('/'));
  await visitor.locator(`.tournaments-panel a[href="/tournament/${tournamentId}"]`).waitFor();
  await visitor.screenshot({ path: join(ARTIFACTS, 'tournament-lobby-panel.png') });
  await visitor.click(`.tournaments-panel a[href="/tournament/${tournamentId}"]`);
  await visitor.waitForURL(new RegExp(`/tournament/${tournamentId}$`));

  // 4. bob joins on a phone: a wrong password is refused with a sentence, the right one admits him
  const b = await open(bob, PHONE, `/tournament/${tournamentId}`);
  await b.locator('#tournament-join').waitFor();
  await b.fill('.tournament-actions input[name="password"]', 'wrong');
  await b.click('#tournament-join');
  await expect.poll(() => b.locator('.tournament-head .note').textContent()).toMatch(/password/i);
  await b.fill('.tournament-actions input[name="password"]', 'koma');
  await b.click('#tournament-join');
  await expect.poll(() => b.locator('.standings tr.me td.name a').textContent()).toBe('bob');
  await b.screenshot({ path: join(ARTIFACTS, 'tournament-joined-phone.png'), fullPage: true });
  // the menu wraps on a phone: nothing runs off the side of the page
  expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect.poll(() => visitor.locator('.standings tbody tr').count(), { timeout: 10_000 }).toBe(2);

  // 5. it starts; the director pairs them and both game pages open by themselves
  await a.waitForURL(/\/games\//, { timeout: 30_000 });
  await b.waitForURL(/\/games\//, { timeout: 30_000 });
  const gameId = gameIdOf(a) as string;
  expect(gameIdOf(b)).toBe(gameId);
  const game = await stack.api.game(gameId);
  expect(game.tournamentId).toBe(tournamentId);
  const [first, second] = game.players.sente.id === alice.id ? [alice, bob] : [bob, alice];
  const [firstPage, secondPage] = first === alice ? [a, b] : [b, a];
  for (const page of [a, b]) {
    await page.locator('.board .piece').first().waitFor();
    await expect.poll(() => page.locator('.tournament-bar a').getAttribute('href')).toBe(`/tournament/${tournamentId}`);
    await expect.poll(() => page.locator('#berserk').isVisible()).toBe(true);
  }
  await expect.poll(() => visitor.locator('.pairings a').getAttribute('href')).toBe(`/games/${gameId}`);

  // 6. the first mover berserks (half the main time), then the moves go over the API
  await firstPage.click('#berserk');
  await expect.poll(() => firstPage.locator('.tournament-bar [role="status"]').textContent()).toMatch(/Berserk/);
  await expect.poll(() => firstPage.locator('#berserk').isVisible()).toBe(false);
  // the berserker's main time is halved on both boards; a tournament game offers no abort
  for (const page of [a, b]) {
    const berserker = page.locator('.player-bar', { has: page.locator(`a:text-is("${first.name}")`) });
    await expect.poll(() => berserker.locator('.clock .time').textContent()).toBe('0:30');
    expect(await page.locator('button:text-is("Abort")').isVisible()).toBe(false);
  }
  await a.screenshot({ path: join(ARTIFACTS, 'tournament-game.png') });
  await b.screenshot({ path: join(ARTIFACTS, 'tournament-game-phone.png'), fullPage: true });
  await moveOverApi(gameId, first.token, '7g7f', 0);
  await moveOverApi(gameId, second.token, '3c3d', 1);
  // the second mover's chance to berserk is gone with their first move
  await expect.poll(() => secondPage.locator('#berserk').isVisible()).toBe(false);
  await expect.poll(() => visitor.locator('.standings td.score').allTextContents()).toEqual(['0', '0']);
  await visitor.screenshot({ path: join(ARTIFACTS, 'tournament-running.png'), fullPage: true });

  // 7. the second mover resigns on the board
  await secondPage.click('button:has-text("Resign")');
  await secondPage.click('dialog.confirm-action button.yes');

  // 8. the visitor's standings move without a reload: the winner first, 2 points, the berserk on the sheet
  const winnerRow = visitor.locator(`.standings tr[data-player="${first.id}"]`);
  await expect.poll(() => winnerRow.locator('td.score').textContent(), { timeout: 15_000 }).toBe('2');
  expect(await winnerRow.locator('td.rank').textContent()).toBe('1');
  expect(await winnerRow.locator('.sheet .berserked').textContent()).toBe('2');
  expect(await visitor.locator(`.standings tr[data-player="${second.id}"] .sheet`).textContent()).toBe('0');
  await visitor.screenshot({ path: join(ARTIFACTS, 'tournament-standings.png'), fullPage: true });

  // 9. back on the tournament, the next pairing opens the next game by itself
  await firstPage.click('.tournament-bar a');
  await firstPage.waitForURL((u) => /\/games\//.test(u.pathname) && !u.pathname.endsWith(gameId), { timeout: 30_000 });
  await firstPage.locator('.board .piece').first().waitFor();
  await firstPage.screenshot({ path: join(ARTIFACTS, 'tournament-next-game.png') });
});
