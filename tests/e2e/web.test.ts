/**
 * The web client end to end, in headless Chromium (Debian's /usr/bin/chromium driven by
 * playwright-core; no browser download) against a real gateway + worker on an ephemeral
 * port, serving a fresh Vite build of apps/web.
 *
 * The story: two players, each in their own browser context, play a short game to
 * checkmate by clicks (one promotion prompt, one drop) and by typed USI moves, while a
 * third context watches and must see every move as it happens. Screenshots of the lobby,
 * the game and the statistics page go to test-artifacts/ and are checked to show pieces.
 *
 * Every page is served under the gateway's Content-Security-Policy, and every flow must run
 * without breaking it: no `securitypolicyviolation` event and no CSP message on the console
 * in any page, checked after each test. The build, the browser and those reports: browser.ts.
 */
import { mkdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { BotRegistry } from '@shogi/gateway';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startBotOpponent } from '../../apps/server/src/demo/opponent.js';
import { type Stack, silentLogger, startStack } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

// a cooperative mate: ▲7六歩 △1四歩 ▲5三歩不成 △1五歩 ▲5二金 (頭金, dropped: KI2 writes 打 only
// where a gold on the board could reach 5二 too)
const START = '4k4/9/8p/4P4/9/9/2P6/9/4K4 b G 1';
const MOVES = [
  { usi: '7g7f', by: 'click' },
  { usi: '1c1d', by: 'keyboard' },
  { usi: '5d5c', by: 'click', promote: false },
  { usi: '1d1e', by: 'keyboard' },
  { usi: 'G*5b', by: 'click' },
] as const;
const DROP_TYPES: Record<string, number> = { P: 1, L: 2, N: 3, S: 4, B: 5, R: 6, G: 7 };

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
let idleBot: { id: string };

beforeAll(async () => {
  webRoot = await buildWebClient();
  const bots = new BotRegistry();
  stack = await startStack({ listen: true, extras: { bots, web: { root: webRoot } } });
  await startBotOpponent({ baseUrl: stack.baseUrl, registry: bots, logger: silentLogger(), moveDelayMs: 50 });
  idleBot = await startBotOpponent({
    baseUrl: stack.baseUrl,
    registry: bots,
    logger: silentLogger(),
    name: 'idle-bot',
    idleMs: 1_500,
  });
  chromium = await openChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await chromium?.close();
  await bounded('stack', stack?.close(), 30_000);
  removeWebClient(webRoot);
});

const contextAs = (who: { id: string; name: string; token: string } | null, width?: number, hasTouch?: boolean) =>
  chromium.contextAs(who, width, hasTouch);

afterEach(() => {
  expect(chromium.takeReports()).toEqual({ violations: [], console: [], unprotected: [] });
});

const url = (path: string) => `${stack.baseUrl}${path}`;
/** GET with the path sent as written (fetch would normalise `%2e%2e` away). */
const rawStatus = (path: string) =>
  new Promise<number>((done, fail) => {
    const { hostname, port } = new URL(stack.baseUrl);
    request({ hostname, port, path }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    })
      .on('error', fail)
      .end();
  });
const movesShown = (page: Page) => page.locator('.moves li .usi').allTextContents();
const waitForMoves = (page: Page, n: number) =>
  page.waitForFunction((count) => document.querySelectorAll('.moves li').length >= count, n, { timeout: 10_000 });

async function play(page: Page, move: (typeof MOVES)[number]): Promise<void> {
  if (move.by === 'keyboard') {
    await page.fill('#usi-input', move.usi);
    await page.press('#usi-input', 'Enter');
    return;
  }
  const [from, to] = move.usi.includes('*')
    ? [move.usi[0] as string, move.usi.slice(2)]
    : [move.usi.slice(0, 2), move.usi.slice(2, 4)];
  if (move.usi.includes('*')) await page.click(`.hand [data-hand="${DROP_TYPES[from]}"]`);
  else await page.click(`.board [data-sq="${from}"]`);
  await page.click(`.board [data-sq="${to}"]`);
  if ('promote' in move) {
    // promotion is optional here: the prompt must appear, and we answer it
    await page.click(`dialog.promotion button[value="${move.promote ? 'promote' : 'plain'}"]`);
  }
}

describe('web client', () => {
  test('the gateway serves the client and never shadows the API', async () => {
    const get = (path: string) => fetch(url(path));
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    expect((await get('/games/some-id')).status).toBe(200); // the client's router takes it
    expect((await get('/stats')).status).toBe(200);
    const api = await get('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get('/docs/json')).status).toBe(200);
    expect((await get('/docs/no-such-page')).status).toBe(404);
    for (const path of [
      '/../package.json',
      '/%2e%2e/%2e%2e/package.json',
      '/..%2f..%2fpackage.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/..%5c..%5cpackage.json',
      '/.env',
    ])
      expect(await rawStatus(path), path).toBe(404);
    expect(await rawStatus('/%00index.html')).toBe(400); // NUL is refused at the door, as everywhere
    expect((await get('/assets/missing-file.js')).status).toBe(404);
  });

  test('two players play to checkmate while a third watches every move', async () => {
    // 1. two players and their game, from a position with a short mate
    const alice = await stack.api.createPlayer('alice');
    const bob = await stack.api.createPlayer('bob');
    const game = await stack.api.createGame({ sente: alice.id, gote: bob.id, sfen: START });
    const sente = await contextAs(alice);
    const gote = await contextAs(bob);
    const watcher = await contextAs(null, 390); // a phone-width spectator

    // 2. the watcher finds the game in the lobby's live games, as a mini board
    await watcher.goto(url('/'));
    const card = watcher.locator(`.live-card[data-game="${game.id}"]`);
    await card.waitFor({ timeout: 10_000 });
    expect(await card.locator('.piece').count()).toBe(5);
    await watcher.screenshot({ path: join(ARTIFACTS, 'web-lobby.png'), fullPage: true });
    await card.locator('a').click();
    await watcher.waitForURL(`**/games/${game.id}`);

    // 3. both players open the game; every page shows the board
    await sente.goto(url(`/games/${game.id}`));
    await gote.goto(url(`/games/${game.id}`));
    for (const page of [sente, gote, watcher]) await page.locator('.board .piece').first().waitFor();
    expect(await gote.locator('.spectators').textContent()).toMatch(/\d+ watching/);

    // 4. the moves, alternately; after each one every page shows it, the watcher included
    for (const [i, move] of MOVES.entries()) {
      await play(i % 2 === 0 ? sente : gote, move);
      for (const page of [sente, gote, watcher]) await waitForMoves(page, i + 1);
      expect((await movesShown(watcher)).at(-1)).toBe(move.usi);
    }

    // 5. the end: checkmate on every page, the mated king highlighted, the moves in both notations
    for (const page of [sente, gote, watcher]) {
      await page.locator('.banner.result').waitFor();
      expect(await page.locator('.banner.result').textContent()).toMatch(/Sente \(alice\) wins by checkmate/);
      expect(await movesShown(page)).toEqual(MOVES.map((m) => m.usi));
    }
    expect(await watcher.locator('.moves .jp').allTextContents()).toEqual([
      '▲７六歩',
      '△１四歩',
      '▲５三歩不成',
      '△１五歩',
      '▲５二金',
    ]);
    expect(await watcher.locator('.board .sq.check').getAttribute('aria-label')).toBe('5a, gote king');
    expect(await watcher.locator('.board .sq.last').count()).toBe(1); // a drop marks only its square
    expect(await sente.locator('#usi-input').isVisible()).toBe(false); // no moves after the end
    await sente.screenshot({ path: join(ARTIFACTS, 'web-game.png'), fullPage: true });
    await watcher.screenshot({ path: join(ARTIFACTS, 'web-game-phone.png'), fullPage: true });
    expect(await sente.locator('.board .piece').count()).toBe(6);

    // 6. a rematch: alice offers, bob's page shows the offer, he accepts, both land in the new game
    await sente.click('button:has-text("Rematch")');
    await gote.locator('.offer button:has-text("Accept rematch")').click();
    for (const page of [sente, gote])
      await page.waitForURL((u) => /\/games\//.test(u.pathname) && !u.pathname.endsWith(game.id));
    expect(sente.url()).toBe(gote.url());
    await gote.locator('.board .piece').first().waitFor();
    expect(await gote.locator('.player-bar.bottom .name').textContent()).toBe('bob'); // colours swapped: bob is sente

    // 7. the statistics page renders its table, charts and the explorer's board
    await watcher.setViewportSize({ width: 1100, height: 900 });
    await watcher.goto(url('/stats'));
    await watcher.locator('table.results').waitFor();
    await watcher.locator('svg.chart').nth(2).waitFor();
    await watcher.locator('.explorer .board .piece').first().waitFor();
    expect(await watcher.locator('.explorer .board .piece').count()).toBe(40);
    expect(await watcher.locator('svg.chart').count()).toBeGreaterThanOrEqual(3);
    await watcher.screenshot({ path: join(ARTIFACTS, 'web-stats.png'), fullPage: true });

    // 8. a player's profile, linked from the game page
    //    (her mated game shows among the latest once the worker's projector has written it)
    await expect
      .poll(
        async () => {
          await watcher.goto(url(`/players/${alice.id}`));
          await watcher.locator('h1:has-text("alice")').waitFor();
          return watcher.locator('.recent li').count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);

    for (const name of ['web-lobby.png', 'web-game.png', 'web-game-phone.png', 'web-stats.png'])
      expect(statSync(join(ARTIFACTS, name)).size, name).toBeGreaterThan(10_000);
  });

  test('a newcomer plays the bot from the lobby with one click', async () => {
    const page = await contextAs(null);
    await page.goto(url('/'));
    await page.click('#play-bot');
    await page.waitForURL('**/games/*');
    await page.locator('.board .piece').first().waitFor();
    expect(await page.locator('.board .piece').count()).toBe(40);
    // drag a pawn (pointer down on 7g, up on 7f), then the bot answers
    const from = await page.locator('.board [data-sq="7g"]').boundingBox();
    const to = await page.locator('.board [data-sq="7f"]').boundingBox();
    if (!from || !to) throw new Error('squares not laid out');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    await waitForMoves(page, 2);
    expect((await movesShown(page))[0]).toBe('7g7f');
    expect(await page.locator('#announcer').textContent()).toMatch(/^2\. △/);
    // resigning ends the game for both: the banner says so, and the bot closes its socket (a bot
    // still in a game holds its socket open, and the gateway's close would wait for it)
    await page.click('button:has-text("Resign")');
    // the page's own question, not the browser's confirm()
    await page.click('dialog.confirm-action button.yes');
    await page.locator('.banner.result').waitFor();
    expect(await page.locator('.banner.result').textContent()).toMatch(/Gote \(demo-bot\) wins by resignation/);
  });

  test('a bot resigns a game its person walked away from: nobody had moved, so it is an abort', async () => {
    const guest = await stack.api.createPlayer('walker');
    const created = await fetch(url(`/api/bots/${idleBot.id}/games`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${guest.token}` },
      body: JSON.stringify({ side: 'sente' }),
    });
    expect(created.status).toBe(201);
    const game = (await created.json()) as { id: string };
    const deadline = Date.now() + 15_000;
    let view = await stack.api.game(game.id);
    while (view.status !== 'ended' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      view = await stack.api.game(game.id);
    }
    // the ply rule: a resignation before both sides moved aborts the game, which nobody wins
    expect(view.result).toEqual({ winner: null, reason: 'abort' });
  });

  test('a read-only token may not start a bot game', async () => {
    const post = async (path: string, body: unknown, token?: string) =>
      fetch(url(path), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post('/api/accounts', { username: 'reader', password: 'correct horse' })).status).toBe(201);
    const session = (await (await post('/api/session', { username: 'reader', password: 'correct horse' })).json()) as {
      token: string;
    };
    const personal = await post('/api/tokens', { name: 'script', scopes: ['read'] }, session.token);
    const { token } = (await personal.json()) as { token: string };
    const refused = await post(`/api/bots/${idleBot.id}/games`, { side: 'sente' }, token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('INSUFFICIENT_SCOPE');
  });

  test('a challenge from the lobby carries the clock, the rating flag and the colour chosen', async () => {
    const carol = await stack.api.createPlayer('clock-carol');
    const dave = await stack.api.createPlayer('clock-dave');
    const challenger = await contextAs(carol);
    await challenger.goto(url('/'));
    // one dialog for every game: a friend by name, with the terms chosen
    await challenger.click('#play-friend');
    await challenger.fill('#create-friend', 'clock-dave');
    await challenger.selectOption('#create-clock', 'fischer');
    // only the chosen kind's fields show
    expect(await challenger.locator('#create-byoyomi').isVisible()).toBe(false);
    expect(await challenger.locator('#create-increment').isVisible()).toBe(true);
    await challenger.fill('#create-minutes', '0');
    await challenger.fill('#create-increment', '0');
    await challenger.click('#create-submit');
    expect(await challenger.locator('dialog.create-game .note').textContent()).toMatch(/both zero/);
    await challenger.fill('#create-minutes', '5');
    await challenger.fill('#create-increment', '3');
    await challenger.check('#create-rated');
    await challenger.selectOption('#create-color', 'gote');
    await challenger.click('#create-submit');
    await challenger.locator('.waiting', { hasText: 'Challenge sent to clock-dave (5+3 Fischer, rated)' }).waitFor();
    expect(await challenger.locator('dialog.create-game').isVisible()).toBe(false);

    // the challenge shows everything that decides it: rated, the colour, the challenger's rating
    const opponent = await contextAs(dave);
    await opponent.goto(url('/'));
    const offer = opponent.locator('.challenges li', { hasText: 'clock-carol' });
    await offer.locator('.rating').waitFor({ timeout: 10_000 });
    expect(await offer.textContent()).toMatch(/clock-carol \(1500\?\) challenges you/);
    expect(await offer.locator('.terms').textContent()).toBe('5+3 Fischer · rated · you play sente ☗');
    await opponent.screenshot({ path: join(ARTIFACTS, 'web-lobby-challenge.png'), fullPage: true });
    await offer.locator('button:has-text("Accept")').click();
    for (const page of [challenger, opponent]) await page.waitForURL('**/games/*', { timeout: 10_000 });
    expect(challenger.url()).toBe(opponent.url());
    await challenger.locator('.game-info .spectators').waitFor();
    expect(await challenger.locator('.game-info').textContent()).toMatch(/5\+3 Fischer · rated/);
    // carol asked for gote: her board is turned, her name at the bottom, both clocks at 5:00
    expect(await challenger.locator('.player-bar.bottom .name').textContent()).toBe('clock-carol');
    expect(await challenger.locator('.clock .time').allTextContents()).toEqual(['5:00', '5:00']);
  });

  test('a seek with a clock of your own: another player sees it open, plays it, and both land in that game', async () => {
    const gina = await stack.api.createPlayer('seek-gina');
    const hugo = await stack.api.createPlayer('seek-hugo');
    const seeker = await contextAs(gina);
    await seeker.goto(url('/'));
    await seeker.click('#create-game');
    await seeker.selectOption('#create-clock', 'byoyomi');
    expect(await seeker.locator('#create-increment').isVisible()).toBe(false);
    await seeker.fill('#create-minutes', '3');
    await seeker.fill('#create-byoyomi', '20');
    await seeker.fill('#create-periods', '2');
    await seeker.check('#create-rated');
    await seeker.click('#create-submit');
    await seeker
      .locator('.waiting', { hasText: 'Looking for an opponent (3|20×2 byoyomi, rated)' })
      .waitFor({ timeout: 10_000 });

    const taker = await contextAs(hugo);
    await taker.goto(url('/'));
    const open = taker.locator('.seek-table tr', { hasText: 'seek-gina' });
    await open.waitFor({ timeout: 10_000 });
    expect(await open.locator('td').allInnerTexts()).toEqual([
      'seek-gina',
      '1500',
      '3|20×2 byoyomi',
      'rated',
      'random',
      'Play',
    ]);
    await open.locator('button:has-text("Play")').click();
    for (const page of [seeker, taker]) await page.waitForURL('**/games/*', { timeout: 15_000 });
    expect(seeker.url()).toBe(taker.url());
    await taker.locator('.game-info .spectators').waitFor();
    expect(await taker.locator('.game-info').textContent()).toMatch(/rated/);
    expect(await taker.locator('.clock .time').allTextContents()).toEqual(['3:00', '3:00']);
  });

  test('pieces in hand are dropped by dragging them, with a finger or a mouse', async () => {
    const erin = await stack.api.createPlayer('dragger-sente');
    const frank = await stack.api.createPlayer('dragger-gote');
    const game = await stack.api.createGame({
      sente: erin.id,
      gote: frank.id,
      sfen: '4k4/9/8p/4P4/9/9/2P6/9/4K4 b GS 1',
    });
    const page = await contextAs(erin, 390, true); // a phone: touch, and the board fills the width
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board .piece').first().waitFor();
    const centre = async (selector: string) => {
      const box = await page.locator(selector).boundingBox();
      if (!box) throw new Error(`${selector} not laid out`);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };

    // a finger: touch down on the gold in hand, slide to 6e, lift (raw touch events, as a phone sends them)
    const from = await centre('.hand [data-hand="7"]');
    const to = await centre('.board [data-sq="6e"]');
    const cdp = await page.context().newCDPSession(page);
    const touch = (
      type: 'touchStart' | 'touchMove' | 'touchEnd' | 'touchCancel',
      at: { x: number; y: number } | null,
    ) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [{ x: at.x, y: at.y }] : [] });
    await touch('touchStart', from);
    for (let i = 1; i <= 5; i++)
      await touch('touchMove', { x: from.x + ((to.x - from.x) * i) / 5, y: from.y + ((to.y - from.y) * i) / 5 });
    expect(await page.locator('.drag-ghost .piece').count()).toBe(1); // the piece follows the finger
    await touch('touchEnd', null);
    await waitForMoves(page, 1);
    expect(await movesShown(page)).toEqual(['G*6e']);
    expect(await page.locator('.drag-ghost').count()).toBe(0);

    // the opponent answers; then a mouse drags the silver to 4e
    const answered = await stack.api.submitMove(game.id, frank.token, { usi: '1c1d', ply: 1 });
    expect(answered.status).toBe(202);
    await waitForMoves(page, 2);
    const silver = await centre('.hand [data-hand="4"]');
    const target = await centre('.board [data-sq="4e"]');
    await page.mouse.move(silver.x, silver.y);
    await page.mouse.down();
    await page.mouse.move(target.x, target.y, { steps: 4 });
    await page.mouse.up();
    await waitForMoves(page, 3);
    expect(await movesShown(page)).toEqual(['G*6e', '1c1d', 'S*4e']);
  });

  test('stepping back through a live game: the view stays put while the game moves on', async () => {
    const alice = await stack.api.createPlayer('stepper-sente');
    const bob = await stack.api.createPlayer('stepper-gote');
    const game = await stack.api.createGame({ sente: alice.id, gote: bob.id });
    // moves straight over HTTP, each once the worker has taken the one before; the pages learn
    // them from the watch socket
    let ply = 0;
    const move = async (who: { token: string }, usi: string) => {
      await expect.poll(async () => (await stack.api.game(game.id)).ply, { timeout: 10_000 }).toBe(ply);
      const answer = await stack.api.submitMove(game.id, who.token, { usi, ply });
      expect(answer.status, usi).toBe(202);
      ply += 1;
    };
    await move(alice, '7g7f');
    await move(bob, '3c3d');
    await move(alice, '2g2f');
    const watcher = await contextAs(null);
    await watcher.goto(url(`/games/${game.id}`));
    await waitForMoves(watcher, 3);
    const square = (page: Page, sq: string) => page.locator(`.board [data-sq="${sq}"]`).getAttribute('aria-label');
    const place = (page: Page) => page.locator('.history-nav .nav-place').textContent();
    expect(await place(watcher)).toBe('Move 3 / 3');
    expect(await watcher.locator('.history-note').isVisible()).toBe(false);

    // ← one move back: 2f2g undone, the previous move marked in the list and on the board
    await watcher.keyboard.press('ArrowLeft');
    expect(await square(watcher, '2f')).toBe('2f, empty');
    expect(await square(watcher, '2g')).toBe('2g, sente pawn');
    expect(await place(watcher)).toBe('Move 2 / 3');
    expect(await watcher.locator('.moves li.current .usi').textContent()).toBe('3c3d');
    expect(await watcher.locator('.board .sq.last').count()).toBe(2); // 3c and 3d
    expect(await watcher.locator('.history-note').textContent()).toMatch(/earlier position/);

    // ⏮ the start position, then a click on the first move
    await watcher.click('.history-nav .nav-first');
    expect(await place(watcher)).toBe('Start / 3');
    expect(await square(watcher, '7g')).toBe('7g, sente pawn');
    expect(await watcher.locator('.board .sq.last').count()).toBe(0);
    await watcher.click('.moves button[data-ply="1"]');
    expect(await square(watcher, '7f')).toBe('7f, sente pawn');
    expect(await square(watcher, '3c')).toBe('3c, gote pawn');

    // a move arrives: the board keeps the position shown, and says the game has moved on
    await move(bob, '8c8d');
    await waitForMoves(watcher, 4);
    await watcher.locator('.history-note.moved-on').waitFor();
    expect(await watcher.locator('.history-note').textContent()).toMatch(/moved on: 1 new move\./);
    expect(await square(watcher, '8d')).toBe('8d, empty');
    expect(await square(watcher, '3c')).toBe('3c, gote pawn');
    expect(await place(watcher)).toBe('Move 1 / 4');
    // the "to move" badge follows the position shown: after 7g7f, gote (live: sente)
    const toMove = (page: Page) => page.locator('.player-bar:has(.turn) .name').textContent();
    expect(await toMove(watcher)).toBe('stepper-gote');
    await watcher.screenshot({ path: join(ARTIFACTS, 'web-game-history.png'), fullPage: true });

    // End: back to the game as it stands, following it again
    await watcher.keyboard.press('End');
    expect(await place(watcher)).toBe('Move 4 / 4');
    expect(await square(watcher, '8d')).toBe('8d, gote pawn');
    expect(await toMove(watcher)).toBe('stepper-sente');
    expect(await watcher.locator('.history-note').isVisible()).toBe(false);

    // a player's board takes no moves while it shows an earlier position
    const sente = await contextAs(alice);
    await sente.goto(url(`/games/${game.id}`));
    await waitForMoves(sente, 4);
    await sente.click('.history-nav .nav-back');
    await sente.click('.board [data-sq="5g"]');
    expect(await sente.locator('.board .sq.target').count()).toBe(0);
    expect(await sente.locator('#usi-input').isDisabled()).toBe(true);
    await sente.click('.history-nav .nav-last');
    await sente.click('.board [data-sq="5g"]');
    expect(await sente.locator('.board .sq.target').count()).toBe(1);
    expect(await sente.locator('#usi-input').isDisabled()).toBe(false);
  });
});

describe('Content-Security-Policy', () => {
  test('is enforced: a script injected into a page does not run, and is reported', async () => {
    const page = await contextAs(null);
    await page.goto(url('/'));
    await page.locator('#main *').first().waitFor();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 100));
      return (window as unknown as { injected?: boolean }).injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => chromium.csp.violations.length).toBe(1);
    expect(chromium.csp.violations[0]).toMatch(/^script-src(-elem)? blocked inline/);
    // what this test provoked is not a fault of the client
    chromium.csp.violations = [];
    chromium.csp.console = [];
  });

  test('the API docs (/docs) work under it: the operations are listed and one opens', async () => {
    const page = await contextAs(null);
    await page.goto(url('/docs'));
    const operation = page.locator('.opblock-summary-path', { hasText: '/api/players' }).first();
    await operation.waitFor({ timeout: 15_000 });
    await operation.click();
    await page.locator('.opblock-body').first().waitFor();
    await page.locator('.try-out__btn').first().click();
    await page.locator('.execute').first().waitFor();
  });
});
