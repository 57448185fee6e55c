/**
 * The lobby, the players and what was broken, in headless Chromium against a real gateway,
 * worker and demo bot: an aborted game reads "Game aborted"; a player alone with the bot is
 * not counted as watching; gote's letters are marked; charts' text is readable at desktop and
 * phone sizes; an unknown path is a not-found page; an account is not offered to start over
 * as a guest; an abandoned bot game leaves the live list (LIVE_FRESH_SECONDS, short here); the
 * favicon; the Create a game dialog with a handicap, the sortable seeks, the TV of the
 * top-rated game, the notation setting, and the profile. Screenshots of each page at
 * 1366×900 and 390×844 go to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BotRegistry } from '@shogi/gateway';
import type { GameView } from '@shogi/protocol';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startBotOpponent } from '../../apps/server/src/demo/opponent.js';
import { type Stack, silentLogger, startStack } from '../integration/harness.js';
import { accountWithToken } from '../integration/lishogi-event-stream.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
// short, so an abandoned game leaves the list within the test; long enough for a page to load
const FRESH_SECONDS = 10;

beforeAll(async () => {
  webRoot = await buildWebClient();
  const bots = new BotRegistry();
  stack = await startStack({
    listen: true,
    config: { liveFreshSeconds: FRESH_SECONDS },
    extras: { bots, web: { root: webRoot } },
  });
  await startBotOpponent({ baseUrl: stack.baseUrl, registry: bots, logger: silentLogger(), moveDelayMs: 50 });
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
type Who = { id: string; name: string; token: string; account?: boolean };
const BYOYOMI = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;

async function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** Plays a move over HTTP and waits until the game has taken it. */
async function move(game: GameView, who: Who, usi: string, ply: number): Promise<void> {
  const res = await post(`/api/games/${game.id}/moves`, { usi, ply }, who.token);
  expect(res.status, `${usi}: ${await res.clone().text()}`).toBe(202);
  await expect.poll(async () => (await stack.api.game(game.id)).ply, { timeout: 10_000 }).toBeGreaterThan(ply);
}

/** Screenshots at both sizes: NAME.png at 1366×900 and NAME-phone.png at 390×844. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(ARTIFACTS, `${name}-phone.png`), fullPage: true });
}

/** The smallest rendered size, in CSS pixels, of the charts' text on the page. */
const smallestChartText = (page: Page) =>
  page.evaluate(() => {
    let smallest = Number.POSITIVE_INFINITY;
    for (const text of document.querySelectorAll<SVGTextElement>('svg.chart text')) {
      // the scale of the text's own axis (a rotated axis title has it in b)
      const m = text.getScreenCTM();
      const scale = m === null ? 0 : Math.hypot(m.a, m.b);
      smallest = Math.min(smallest, Number.parseFloat(getComputedStyle(text).fontSize) * scale);
    }
    return smallest;
  });

describe('what was broken', () => {
  test('an aborted game reads "Game aborted", not a draw', async () => {
    const ann = await stack.api.createPlayer('abort-ann');
    const ben = await stack.api.createPlayer('abort-ben');
    const game = await stack.api.createGame({ sente: ann.id, gote: ben.id });
    const page = await chromium.contextAs(ann);
    await page.goto(url(`/games/${game.id}`));
    await page.click('button:has-text("Abort")');
    // the page's own question, not the browser's confirm()
    await page.click('dialog.confirm-action button.yes');
    await page.locator('.banner.result').waitFor();
    expect(await page.locator('.banner.result').textContent()).toBe('Game aborted');
  });

  test('before the game has loaded, no control shows (a button then did nothing when pressed)', async () => {
    const ann = await stack.api.createPlayer('early-ann');
    const ben = await stack.api.createPlayer('early-ben');
    const game = await stack.api.createGame({ sente: ann.id, gote: ben.id });
    const page = await chromium.contextAs(ann);
    // the watch socket, which brings the game's snapshot, reaches the server only once released
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.routeWebSocket(/\/watch/, async (socket) => {
      await held;
      socket.connectToServer();
    });
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.controls').waitFor({ state: 'attached' });
    for (const name of ['Resign', 'Abort', 'Declare impasse', 'Rematch', 'Play again'])
      expect(await page.locator(`.controls button:has-text("${name}")`).isVisible(), name).toBe(false);
    expect(await page.locator('#usi-input').isVisible()).toBe(false);
    release();
    await page.locator('.controls button:has-text("Abort")').waitFor();
    expect(await page.locator('.controls button:has-text("Resign")').isVisible()).toBe(true);
    expect(await page.locator('.controls button:has-text("Rematch")').isVisible()).toBe(false);
  });

  test('a player alone with the bot is not watching; a spectator is', async () => {
    const page = await chromium.contextAs(null);
    await page.goto(url('/'));
    await page.click('#play-bot');
    await page.waitForURL('**/games/*');
    await page.locator('.game-info .spectators').waitFor();
    // the count arrives with the snapshot; give a wrong one time to show
    await page.waitForTimeout(1500);
    expect(await page.locator('.spectators').textContent()).toBe('0 watching');
    const watcher = await chromium.contextAs(null);
    await watcher.goto(page.url());
    await watcher.locator('.board .piece').first().waitFor();
    await page.locator('.spectators', { hasText: '1 watching' }).waitFor({ timeout: 10_000 });
    expect(await watcher.locator('.spectators').textContent()).toBe('1 watching');
    await page.click('button:has-text("Resign")');
    // the page's own question, not the browser's confirm()
    await page.click('dialog.confirm-action button.yes');
    await page.locator('.banner.result').waitFor();
  });

  test("letters: gote's pieces are marked by their owner, not only turned round", async () => {
    const cy = await stack.api.createPlayer('letters-cy');
    const dee = await stack.api.createPlayer('letters-dee');
    const game = await stack.api.createGame({ sente: cy.id, gote: dee.id });
    const page = await chromium.contextAs(cy);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board .piece').first().waitFor();
    // the international set, as the settings choose it
    await page.evaluate(() => localStorage.setItem('shogi.pieceStyle', 'latin'));
    await page.reload();
    await page.locator('.board .piece text.latin').first().waitFor();
    const look = (sq: string) =>
      page.locator(`.board [data-sq="${sq}"] .piece text.latin`).evaluate((el) => {
        const style = getComputedStyle(el);
        return { text: el.textContent, fill: style.fill, line: style.textDecorationLine };
      });
    const senteKnight = await look('2i');
    const goteKnight = await look('2a');
    expect(senteKnight.text).toBe('N');
    expect(goteKnight.text).toBe('N');
    expect(goteKnight.fill).not.toBe(senteKnight.fill);
    expect(goteKnight.line).toBe('underline');
    expect(senteKnight.line).toBe('none');
    await shoot(page, 'web-game-letters');
  });

  test('charts: axis text of at least 11 px at both sizes, a count axis, an opening table on one line a row', async () => {
    // a few finished games from the start, so every chart and the explorer have data
    for (const [i, line] of [
      ['7g7f', '3c3d'],
      ['2g2f', '8c8d'],
      ['7g7f', '8c8d'],
    ].entries()) {
      const a = await stack.api.createPlayer(`chart-a${i}`);
      const b = await stack.api.createPlayer(`chart-b${i}`);
      const game = await stack.api.createGame({ sente: a.id, gote: b.id });
      for (const [ply, usi] of line.entries()) await move(game, ply % 2 === 0 ? a : b, usi, ply);
      expect((await post(`/api/games/${game.id}/resign`, {}, a.token)).status).toBe(202);
    }
    const page = await chromium.contextAs(null, 1366);
    await expect
      .poll(
        async () => {
          await page.goto(url('/stats'));
          await page.locator('table.openings tbody tr').first().waitFor();
          return page.locator('table.openings tbody tr').count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(1);
    await page.locator('svg.chart').nth(2).waitFor();
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForTimeout(300);
      expect(await smallestChartText(page), `chart text at ${width} px`).toBeGreaterThanOrEqual(11);
      // each opening row on one line: no cell wraps into fragments
      const heights = await page
        .locator('table.openings tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
      expect(Math.max(...heights), `opening rows at ${width} px`).toBeLessThan(40);
    }
    // the game-length histogram: a count axis from 0 in even steps
    const ticks = await page.locator('svg.chart[aria-label="Game lengths"] text[text-anchor="end"]').allTextContents();
    const counts = ticks.map(Number);
    expect(counts[0]).toBe(0);
    expect(new Set(counts.slice(1).map((c, i) => c - (counts[i] as number))).size).toBe(1);
    await shoot(page, 'web-statistics');
  });

  test('an unknown path is a not-found page; the favicon is served', async () => {
    const page = await chromium.contextAs(null, 1366);
    await page.goto(url('/no/such/page'));
    await page.locator('h1', { hasText: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found · Shogi');
    expect(await page.locator('.lobby').count()).toBe(0);
    await shoot(page, 'web-not-found');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    const icon = await fetch(url(href ?? '/missing'));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg/);
  });

  test('a logged-in account is not offered "Start over as a new guest"; a guest is', async () => {
    expect((await post('/api/accounts', { username: 'keeper', password: 'correct horse' })).status).toBe(201);
    const session = (await (await post('/api/session', { username: 'keeper', password: 'correct horse' })).json()) as {
      token: string;
      player: { id: string; name: string };
    };
    const account = await chromium.contextAs({ ...session.player, token: session.token, account: true } as Who);
    await account.goto(url('/'));
    await account.locator('.account-bar', { hasText: 'Logged in as keeper' }).waitFor();
    expect(await account.locator('button:has-text("Start over as a new guest")').count()).toBe(0);
    expect(await account.locator('button:has-text("Log out")').count()).toBe(1);
    const guest = await chromium.contextAs(await stack.api.createPlayer('guest-gus'));
    await guest.goto(url('/'));
    await guest.locator('button:has-text("Start over as a new guest")').waitFor();
  });

  test('a bot game its player walked away from leaves the live list', async () => {
    const page = await chromium.contextAs(null);
    await page.goto(url('/'));
    await page.click('#play-bot');
    await page.waitForURL('**/games/*');
    const gameId = new URL(page.url()).pathname.split('/').at(-1) as string;
    await page.click('.board [data-sq="7g"]');
    await page.click('.board [data-sq="7f"]');
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length >= 2, null, { timeout: 10_000 });
    const liveIds = async () =>
      ((await (await fetch(url('/api/live'))).json()) as { games: { id: string }[] }).games.map((g) => g.id);
    expect(await liveIds()).toContain(gameId);
    // the player walks away: the game goes from the list, and from a lobby that showed it
    await page.close();
    const lobby = await chromium.contextAs(null);
    await lobby.goto(url('/'));
    await lobby.locator('.live-grid').waitFor();
    // the list first (a card may also leave a full grid for other reasons), then the lobby that showed it
    await expect.poll(liveIds, { timeout: 40_000, interval: 500 }).not.toContain(gameId);
    await lobby.locator(`.live-card[data-game="${gameId}"]`).waitFor({ state: 'detached', timeout: 40_000 });
  });
});

describe('the lobby and the players', () => {
  test('Create a game with a handicap: another player sees the seek with its terms, sorts the seeks, and plays it', async () => {
    const giver = await stack.api.createPlayer('hc-giver');
    const taker = await stack.api.createPlayer('hc-taker');
    const seeker = await chromium.contextAs(giver, 1366);
    await seeker.goto(url('/'));
    await seeker.click('#create-game');
    await seeker.selectOption('#create-clock', 'byoyomi');
    await seeker.fill('#create-minutes', '10');
    await seeker.fill('#create-byoyomi', '30');
    await seeker.selectOption('#create-color', 'gote');
    await seeker.selectOption('#create-handicap', 'bishop');
    await shoot(seeker, 'web-create-game');
    await seeker.click('#create-submit');
    await seeker.locator('.waiting', { hasText: 'Looking for an opponent (10|30 byoyomi, casual)' }).waitFor();
    // a second open seek, so the table has something to sort
    const other = await stack.api.createPlayer('hc-other');
    expect((await post('/api/seeks', { timeControl: { kind: 'unlimited' }, rated: false }, other.token)).status).toBe(
      201,
    );

    const page = await chromium.contextAs(taker, 1366);
    await page.goto(url('/'));
    const row = page.locator('.seek-table tr', { hasText: 'hc-giver' });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.locator('td').nth(3).textContent()).toBe('casual · Bishop (角落ち)');
    expect(await row.locator('td').nth(4).textContent()).toBe('☗ sente');
    // by clock: the shortest first, then the other way round
    await page.click('button.sort[data-sort="clock"]');
    const players = () => page.locator('.seek-table tbody td.player').allTextContents();
    expect(await players()).toEqual(['hc-giver', 'hc-other']);
    await page.click('button.sort[data-sort="clock"]');
    expect(await players()).toEqual(['hc-other', 'hc-giver']);
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toMatch(/Clock/);
    await shoot(page, 'web-lobby-seeks');
    await row.locator('button:has-text("Play")').click();
    for (const p of [seeker, page]) await p.waitForURL('**/games/*', { timeout: 15_000 });
    const game = await stack.api.game(new URL(page.url()).pathname.split('/').at(-1) as string);
    // the giver is gote and moves first: the bishop is off gote's side of the board
    expect(game.players.gote.id).toBe(giver.id);
    expect(game.initialSfen.split(' ')[0]).not.toContain('b');
    // both players see their game in progress in the lobby
    await seeker.goto(url('/'));
    await seeker.locator(`.my-games [data-game="${game.id}"]`).waitFor({ timeout: 15_000 });
    expect(await seeker.locator(`.my-games [data-game="${game.id}"]`).textContent()).toMatch(/vs hc-taker.*Your move/);
  });

  test('the TV shows the top-rated live game; ratings read "1662?" while provisional; the profile has results by time control and colour', async () => {
    // a rated game decides two ratings: the winner's is above a newcomer's 1500
    const [win, lose, fresh1, fresh2, fresh3] = await Promise.all(
      ['tv-win', 'tv-lose', 'tv-new1', 'tv-new2', 'tv-new3'].map((n) => stack.api.createPlayer(n)),
    );
    if (!win || !lose || !fresh1 || !fresh2 || !fresh3) throw new Error('players');
    const rated = await stack.api.createGame({ sente: win.id, gote: lose.id, rated: true, timeControl: BYOYOMI });
    for (const [ply, usi] of ['7g7f', '3c3d', '2g2f', '8c8d'].entries())
      await move(rated, ply % 2 === 0 ? win : lose, usi, ply);
    expect((await post(`/api/games/${rated.id}/resign`, {}, lose.token)).status).toBe(202);
    await expect
      .poll(
        async () =>
          ((await (await fetch(url(`/api/players/${win.id}`))).json()) as { ratings: unknown[] }).ratings.length,
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    // two live games: the winner against a newcomer, and two newcomers
    const top = await stack.api.createGame({ sente: fresh1.id, gote: win.id });
    const low = await stack.api.createGame({ sente: fresh2.id, gote: fresh3.id });
    await move(low, fresh2, '7g7f', 0);
    await move(top, fresh1, '2g2f', 0);
    const page = await chromium.contextAs(null, 1366);
    await page.goto(url('/'));
    const tv = page.locator(`.tv-screen a[data-game="${top.id}"]`);
    await tv.waitFor({ timeout: 10_000 });
    expect(await tv.locator('.live-player').first().textContent()).toMatch(/☖ tv-win \d{4}\?/);
    expect(await tv.locator('.piece').count()).toBe(40);
    expect(await page.locator(`.live-card[data-game="${low.id}"]`).count()).toBe(1);
    // the TV follows its game move by move
    await move(top, win, '8c8d', 1);
    await page.locator('.tv-screen .meta', { hasText: 'move 2' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('.tv-screen .board .sq.last').count()).toBe(2);
    await shoot(page, 'web-lobby-tv');

    // the profile: results by time control with the provisional rating, results by colour
    await page.goto(url(`/players/${win.id}`));
    const category = page.locator('tr[data-category]');
    await category.waitFor();
    expect(await category.locator('td.rating').textContent()).toMatch(/^\d{4}\?$/);
    expect(await category.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/\?$/),
      '1',
      '1',
      '0',
      '0',
      '100 %',
    ]);
    expect(await page.locator('tr[data-color="sente"] td').first().textContent()).toBe('1');
    await page.locator('.rating-history svg.chart').waitFor();
    await shoot(page, 'web-player');
  });

  test('a bot account is marked BOT in the lobby, on the game page and on profiles', async () => {
    const bot = await accountWithToken(stack.app, 'RoboTitle', ['bot:play']);
    expect((await post('/api/bot/account/upgrade', {}, bot.token)).status).toBe(200);
    const guest = await stack.api.createPlayer('titled-guest');
    const game = await stack.api.createGame({ sente: guest.id, gote: bot.id });
    await move(game, guest, '7g7f', 0);
    // the bot replies over the Bot API: a resignation before both sides moved would be an abort (the ply rule)
    const reply = await post(`/api/bot/game/${game.id}/move/3c3d`, {}, bot.token);
    expect(reply.status, await reply.clone().text()).toBe(200);
    await expect.poll(async () => (await stack.api.game(game.id)).ply, { timeout: 10_000 }).toBe(2);
    const page = await chromium.contextAs(guest, 1366);
    await page.goto(url('/'));
    // the live boards, and your games in progress
    await page.locator(`.live-card[data-game="${game.id}"] .bot-title`).waitFor({ timeout: 10_000 });
    await page.locator(`.my-games [data-game="${game.id}"] .bot-title`).waitFor({ timeout: 10_000 });
    expect(await page.locator(`.my-games [data-game="${game.id}"]`).textContent()).toMatch(/vs BOT RoboTitle/);
    // the game page
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.player-bar.top .bot-title').waitFor();
    expect(await page.locator('.player-bar.top .name').textContent()).toBe('BOT RoboTitle');
    await page.click('button:has-text("Resign")');
    // the page's own question, not the browser's confirm()
    await page.click('dialog.confirm-action button.yes');
    await page.locator('.banner.result').waitFor();
    // the bot's profile, and the guest's latest games
    await page.click('.player-bar.top .name');
    await page.locator('h1 .bot-title').waitFor();
    expect(await page.locator('h1').textContent()).toBe('BOT RoboTitle');
    await expect
      .poll(
        async () => {
          await page.goto(url(`/players/${guest.id}`));
          await page.locator('h1', { hasText: 'titled-guest' }).waitFor();
          return page.locator('.recent li').allTextContents();
        },
        { timeout: 15_000 },
      )
      .toEqual([expect.stringMatching(/^loss as sente vs BOT RoboTitle · resignation/)]);
  });

  test('the move notation chosen in the settings is remembered and used by the move list', async () => {
    const eve = await stack.api.createPlayer('notation-eve');
    const fay = await stack.api.createPlayer('notation-fay');
    const game = await stack.api.createGame({ sente: eve.id, gote: fay.id });
    await move(game, eve, '7g7f', 0);
    await move(game, fay, '3c3d', 1);
    await move(game, eve, '8h2b+', 2);
    const page = await chromium.contextAs(null, 1366);
    await page.goto(url('/settings'));
    await page.check('#notation-western');
    await page.locator('.saved', { hasText: 'Saved' }).waitFor();
    await shoot(page, 'web-settings');
    await page.goto(url(`/games/${game.id}`));
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length >= 3);
    expect(await page.locator('.moves .jp').allTextContents()).toEqual(['P-7f', 'P-3d', 'Bx2b+']);
    await shoot(page, 'web-game-western');
    await page.goto(url('/settings'));
    expect(await page.locator('#notation-western').isChecked()).toBe(true);
    await page.check('#notation-csa');
    await page.goto(url(`/games/${game.id}`));
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length >= 3);
    expect(await page.locator('.moves .jp').allTextContents()).toEqual(['+7776FU', '-3334FU', '+8822UM']);
  });
});
