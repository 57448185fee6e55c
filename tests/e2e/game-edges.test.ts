/**
 * What a lishogi player missed at the board (issue 44), in headless Chromium against a real
 * gateway, worker and engine role (Fairy-Stockfish): the page never scrolls on a move, so the
 * board and both clocks stay in view on a phone; a loss on time shows 0:00; the page's notes
 * are a player's sentences that go once the game moves on, its questions are its own dialog,
 * the sound toggle says its state, every page has a title; and the home page starts a game
 * against the computer in one click as either colour, the level and clock remembered.
 * Screenshots at 1366×900 and 390×844 go to test-artifacts/edges-*.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { BotRegistry } from '@shogi/gateway';
import type { GameView, TimeControl } from '@shogi/protocol';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { startHouseBots } from '../../apps/server/src/house/house-bots.js';
import { REDIS, type Stack, silentLogger, startStack, startStackEngines } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
let engines: RunningEngineWorker | null = null;
let engineClient: EngineClient | null = null;

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH))
    throw new Error(`${DEFAULT_ENGINE_PATH} is missing: install it with apt-get install fairy-stockfish`);
  webRoot = await buildWebClient();
  const bots = new BotRegistry();
  stack = await startStack({ listen: true, extras: { bots, web: { root: webRoot } } });
  // the engine role, as `npm start` runs it; one engine is enough for the low levels played here
  const settings = { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 8 };
  engines = await startStackEngines(stack, settings);
  engineClient = await EngineClient.start({ ...REDIS, prefix: stack.config.queuePrefix, logger: silentLogger() });
  await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: bots,
    logger: silentLogger(),
    engine: engineClient,
    moveDelayMs: 0,
  });
  chromium = await openChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await chromium?.close();
  await bounded('stack', stack?.close(), 30_000);
  await engineClient?.close();
  await engines?.close();
  removeWebClient(webRoot);
});

afterEach(() => {
  expect(chromium.takeReports()).toEqual({ violations: [], console: [], unprotected: [] });
});

const url = (path: string) => `${stack.baseUrl}${path}`;
type Who = { id: string; name: string; token: string };
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
// a long game, so the move list outgrows its box: the opening of a real game and back and forth
const MOVES = [
  '7g7f',
  '3c3d',
  '2g2f',
  '8c8d',
  '2f2e',
  '8d8e',
  '6i7h',
  '4a3b',
  '2e2d',
  '2c2d',
  '2h2d',
  'P*2c',
  '2d2f',
  '7a7b',
  '3i3h',
  '5a4b',
  '5i6h',
  '6a5b',
  '4g4f',
  '1c1d',
];

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

async function twoPlayers(tag: string, timeControl?: TimeControl) {
  const ann = await stack.api.createPlayer(`${tag}-ann`);
  const ben = await stack.api.createPlayer(`${tag}-ben`);
  const game = await stack.api.createGame({ sente: ann.id, gote: ben.id, ...(timeControl ? { timeControl } : {}) });
  return { ann, ben, game };
}

/** A page at the given size, as `who`. */
async function pageAs(who: Who | null, size: { width: number; height: number }): Promise<Page> {
  const page = await chromium.contextAs(who, size.width);
  await page.setViewportSize(size);
  return page;
}

/** Where the board and both clocks are, against the window: each must be wholly inside it. */
const inView = (page: Page) =>
  page.evaluate(() => {
    const inside = (selector: string) => {
      const el = document.querySelector(selector);
      if (!el) return `${selector}: missing`;
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight ? 'in view' : `${selector}: ${r.top}..${r.bottom}`;
    };
    return {
      scrollY: window.scrollY,
      board: inside('.board-box .board'),
      topClock: inside('.player-bar.top .clock'),
      bottomClock: inside('.player-bar.bottom .clock'),
    };
  });

const IN_VIEW = { scrollY: 0, board: 'in view', topClock: 'in view', bottomClock: 'in view' };

describe('the page stays put through a game', () => {
  for (const [name, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)
    test(`on a ${name} (${size.width}×${size.height}) the board and both clocks stay in view on every move`, async () => {
      const { ann, ben, game } = await twoPlayers(`scroll-${name}`, {
        kind: 'byoyomi',
        mainSeconds: 600,
        byoyomiSeconds: 30,
        periods: 1,
      });
      const page = await pageAs(ann, size);
      await page.goto(url(`/games/${game.id}`));
      await page.locator('.player-bar.top .clock').waitFor();
      expect(await inView(page)).toEqual(IN_VIEW);
      for (const [i, usi] of MOVES.entries()) {
        await move(game, i % 2 === 0 ? ann : ben, usi, i);
        await page.waitForFunction((n) => document.querySelectorAll('.moves li').length === n, i + 1);
        // the list's scrolling used to take the page along: ~300 px on a phone, every move
        expect(await inView(page), `after move ${i + 1}`).toEqual(IN_VIEW);
      }
      // the list itself still follows the game: its last move shows inside its own box
      const list = await page.evaluate(() => {
        const box = document.querySelector('.moves') as HTMLElement;
        const last = box.querySelector('li.current') as HTMLElement;
        const b = box.getBoundingClientRect();
        const l = last.getBoundingClientRect();
        return { scrolled: box.scrollTop > 0, lastShown: l.top >= b.top - 1 && l.bottom <= b.bottom + 1 };
      });
      expect(list).toEqual({ scrolled: true, lastShown: true });
      await page.screenshot({ path: join(ARTIFACTS, `edges-after-20-moves-${name}.png`) });
    });
});

describe('a loss on time', () => {
  test("the loser's clock shows 0:00, not a fresh byoyomi period, live and after a reload", async () => {
    // no main time and two 3 s periods: sente's time runs out 6 s after both first moves
    const { ann, ben, game } = await twoPlayers('flag', {
      kind: 'byoyomi',
      mainSeconds: 0,
      byoyomiSeconds: 3,
      periods: 2,
    });
    const page = await pageAs(ann, DESKTOP);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.player-bar.top .clock').waitFor();
    await move(game, ann, '7g7f', 0);
    await move(game, ben, '3c3d', 1);
    await page.locator('.banner.result', { hasText: 'wins by time out' }).waitFor({ timeout: 20_000 });
    const clocks = () =>
      page.evaluate(() =>
        ['sente', 'gote'].map((side) => document.querySelector(`.clock[data-side="${side}"]`)?.textContent?.trim()),
      );
    // sente lost on time: nothing left; gote moved within its period and keeps both
    expect(await clocks()).toEqual(['0:00', '0:03 ×2']);
    await page.screenshot({ path: join(ARTIFACTS, 'edges-lost-on-time.png') });
    await page.reload();
    await page.locator('.banner.result').waitFor();
    expect(await clocks()).toEqual(['0:00', '0:03 ×2']);
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'edges-lost-on-time-phone.png') });
  });
});

describe("the page's words and questions", () => {
  test("a note is a player's sentence and goes once the game moves on or ends", async () => {
    const { ann, ben, game } = await twoPlayers('note');
    const page = await pageAs(ann, DESKTOP);
    await page.goto(url(`/games/${game.id}`));
    const note = page.locator('.side-panel .note');
    const type = async (usi: string) => {
      await page.fill('#usi-input', usi);
      await page.press('#usi-input', 'Enter');
    };
    await page.locator('#usi-input:not([disabled])').waitFor();
    await type('7g7e');
    await expect.poll(() => note.textContent()).toBe('You cannot play 7g7e: that piece cannot move there.');
    // a move arrives that this page did not send (the same player on another device): the note
    // about the position before it goes
    await move(game, ann, '7g7f', 0);
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 1);
    expect(await note.textContent()).toBe('');
    await move(game, ben, '3c3d', 1);
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length === 2);
    // the rules' reasons in words, never their codes; the rules named only when unusual
    await type('5i5g');
    await expect.poll(() => note.textContent()).toBe('You cannot play 5i5g: you cannot take your own piece.');
    expect(await page.locator('.game-info').textContent()).not.toMatch(/ruleset|default/);
    await post(`/api/games/${game.id}/resign`, {}, ben.token);
    await page.locator('.banner.result').waitFor();
    expect(await note.textContent()).toBe('');
  });

  test("the server's refusals read as a player's sentences, not the API's", async () => {
    const { ann, game } = await twoPlayers('words');
    const page = await pageAs(ann, DESKTOP);
    // the gateway's answer to a player who sends too many requests, as its rate limit writes it
    await page.route('**/api/games/*/moves', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3' },
        body: JSON.stringify({
          code: 'RATE_LIMITED',
          message: 'Too many requests; retry after the Retry-After header (seconds)',
        }),
      }),
    );
    await page.goto(url(`/games/${game.id}`));
    await page.locator('#usi-input:not([disabled])').waitFor();
    await page.fill('#usi-input', '7g7f');
    await page.press('#usi-input', 'Enter');
    const note = page.locator('.side-panel .note');
    await expect.poll(() => note.textContent()).toBe('You are going too fast: wait a few seconds and try again.');
  });

  test("resign and abort ask in the page's own dialog; Keep playing keeps the game; the game's end closes it", async () => {
    const { ann, ben, game } = await twoPlayers('ask');
    const page = await pageAs(ann, DESKTOP);
    const native: string[] = [];
    page.on('dialog', (dialog) => {
      native.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url(`/games/${game.id}`));
    await page.click('button:has-text("Abort")');
    const dialog = page.locator('dialog.confirm-action');
    await dialog.waitFor();
    expect(await dialog.locator('p').textContent()).toBe('Abort this game? It ends without a result.');
    // the harmless answer has the focus
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep playing');
    await page.screenshot({ path: join(ARTIFACTS, 'edges-confirm-abort.png') });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'edges-confirm-abort-phone.png') });
    await page.setViewportSize(DESKTOP);
    await dialog.locator('button.no').click();
    await dialog.waitFor({ state: 'detached' });
    expect((await stack.api.game(game.id)).status).toBe('ongoing');
    // Escape is No too
    await page.click('button:has-text("Abort")');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await stack.api.game(game.id)).status).toBe('ongoing');

    await move(game, ann, '7g7f', 0);
    await move(game, ben, '3c3d', 1);
    await page.click('button:has-text("Resign")');
    await dialog.waitFor();
    expect(await dialog.locator('p').textContent()).toBe('Resign this game? Your opponent wins.');
    await dialog.locator('button.yes').click();
    await page.locator('.banner.result').waitFor();
    expect(await page.locator('.banner.result').textContent()).toMatch(/Gote \(ask-ben\) wins by resignation/);

    // a question left open when the game ends another way goes with it
    const next = await stack.api.createGame({ sente: ann.id, gote: ben.id });
    // both sides move first: a resignation before that would abort the game (the ply rule)
    await move(next, ann, '7g7f', 0);
    await move(next, ben, '3c3d', 1);
    await page.goto(url(`/games/${next.id}`));
    await page.click('button:has-text("Resign")');
    await dialog.waitFor();
    await post(`/api/games/${next.id}/resign`, {}, ben.token);
    await page.locator('.banner.result').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.locator('.banner.result').textContent()).toMatch(/Sente \(ask-ann\) wins by resignation/);
    expect(native).toEqual([]);
  });

  test("the sound toggle's name stays put and its pressed state follows the sound, from the button and from the settings", async () => {
    const { ann, game } = await twoPlayers('sound');
    const page = await pageAs(ann, DESKTOP);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board-box .board').waitFor();
    // as a screen reader finds it: one button named "Sound", pressed while the sound is on
    // (it was named "Sound off" when muted, which with "not pressed" read as the opposite)
    const toggle = (pressed: boolean) => page.getByRole('button', { name: 'Sound', exact: true, pressed });
    const muted = () => page.locator('.board-tools .sound-toggle').getAttribute('title');
    expect(await toggle(true).count()).toBe(1);
    await toggle(true).click();
    expect(await toggle(false).count()).toBe(1);
    expect(await muted()).toBe('Sound off: click to turn on');
    await page.reload();
    await page.locator('.board-box .board').waitFor();
    expect(await toggle(false).count()).toBe(1);
    // the same setting in the settings dialog
    await page.click('.board-tools .open-settings');
    await page.locator('dialog.settings #setting-sound').check();
    expect(await toggle(true).count()).toBe(1);
    expect(await muted()).toBe('Sound on: click to mute');
  });

  test('every page has a title of its own', async () => {
    const { ann, game } = await twoPlayers('title');
    const page = await pageAs(ann, DESKTOP);
    const titles: Record<string, string> = {};
    for (const path of [
      '/',
      `/games/${game.id}`,
      '/games/no-such-game',
      `/players/${ann.id}`,
      '/players/no-such-player',
      '/stats',
      '/import',
      '/settings',
      `/analysis/${game.id}`,
      '/no-such-page',
    ]) {
      await page.goto(url(path));
      await page.locator('#main > *').first().waitFor();
      await page.waitForTimeout(300);
      titles[path] = await page.title();
    }
    expect(titles).toEqual({
      '/': 'Shogi',
      [`/games/${game.id}`]: 'title-ann vs title-ben · Shogi',
      '/games/no-such-game': 'No such game · Shogi',
      [`/players/${ann.id}`]: 'title-ann · Shogi',
      '/players/no-such-player': 'No such player · Shogi',
      '/stats': 'Statistics · Shogi',
      '/import': 'Import · Shogi',
      '/settings': 'Settings · Shogi',
      [`/analysis/${game.id}`]: 'Analysis: title-ann vs title-ben · Shogi',
      '/no-such-page': 'Page not found · Shogi',
    });
  });
});

describe('Play the computer', () => {
  test('one click from the home page plays it as gote; the level and clock are remembered for the next', async () => {
    const page = await pageAs(null, DESKTOP);
    await page.goto(url('/'));
    const panel = page.locator('.computer-play');
    await panel.locator('#computer-level option').first().waitFor({ state: 'attached' });
    // a newcomer is offered the weakest level, on the first clock
    expect(await page.locator('#computer-level option:checked').textContent()).toBe('Level 1 (weakest)');
    await page.selectOption('#computer-level', { label: 'Level 2' });
    await page.selectOption('#computer-clock', { label: '3|10' });
    await page.screenshot({ path: join(ARTIFACTS, 'edges-lobby-computer.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(ARTIFACTS, 'edges-lobby-computer-phone.png'), fullPage: true });
    await page.setViewportSize(DESKTOP);

    // one click: a game as gote, the computer (sente) moving first
    await page.click('.computer-play button[data-side="gote"]');
    await page.waitForURL('**/games/*');
    const first = await stack.api.game(new URL(page.url()).pathname.split('/').at(-1) as string);
    expect(first.players.sente.name).toBe('Engine level 2');
    expect(first.timeControl).toEqual({ kind: 'byoyomi', mainSeconds: 180, byoyomiSeconds: 10, periods: 1 });
    await page.waitForFunction(() => document.querySelectorAll('.moves li').length >= 1, null, { timeout: 20_000 });
    // gote plays from the bottom: the computer's bar is at the top
    expect(await page.locator('.player-bar.top .name').textContent()).toBe('Engine level 2');
    await page.click('button:has-text("Resign")');
    await page.click('dialog.confirm-action button.yes');
    await page.locator('.banner.result').waitFor();

    // the next visit offers the same level and clock: the next game is one click again
    await page.goto(url('/'));
    await page.locator('#computer-level option').first().waitFor({ state: 'attached' });
    expect(await page.locator('#computer-level option:checked').textContent()).toBe('Level 2');
    expect(await page.locator('#computer-clock option:checked').textContent()).toBe('3|10');
    await page.click('.computer-play button[data-side="sente"]');
    await page.waitForURL((u) => u.pathname !== `/games/${first.id}` && u.pathname.startsWith('/games/'));
    const second = await stack.api.game(new URL(page.url()).pathname.split('/').at(-1) as string);
    expect([second.players.gote.name, second.timeControl]).toEqual(['Engine level 2', first.timeControl]);
    await page.locator('button:has-text("Resign")').waitFor();
    await page.click('button:has-text("Resign")');
    await page.click('dialog.confirm-action button.yes');
    await page.locator('.banner.result').waitFor();
  });
});
