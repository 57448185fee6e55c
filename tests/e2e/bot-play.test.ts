/**
 * Playing bots in the web client, in headless Chromium against a real gateway, worker and
 * engine role (Fairy-Stockfish): an engine bot started from the lobby at a chosen level and
 * clock, "Play again" after a bot game (a rematch the bot accepts at once), and "Play again"
 * after a game with bot-lobby, which accepts on its lobby socket like a person.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import { BotRegistry } from '@shogi/gateway';
import type { GameView } from '@shogi/protocol';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { answerSeeks } from '../../apps/server/src/demo/seek-answerer.js';
import { EngineClient } from '../../apps/server/src/house/engine-client.js';
import { startHouseBots } from '../../apps/server/src/house/house-bots.js';
import { REDIS, type Stack, silentLogger, startStack, startStackEngines } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
let engines: RunningEngineWorker | null = null;
let engineClient: EngineClient | null = null;
const demo = new AbortController();

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH))
    throw new Error(`${DEFAULT_ENGINE_PATH} is missing: install it with apt-get install fairy-stockfish`);
  webRoot = await buildWebClient();
  const bots = new BotRegistry();
  stack = await startStack({ listen: true, extras: { bots, web: { root: webRoot } } });
  // the engine role, as `npm start` runs it; one engine is enough for the low levels played here
  const prefix = stack.config.queuePrefix;
  const settings = { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 8 };
  engines = await startStackEngines(stack, settings);
  engineClient = await EngineClient.start({ ...REDIS, prefix, logger: silentLogger() });
  await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: bots,
    logger: silentLogger(),
    engine: engineClient,
    moveDelayMs: 0,
  });
  answerSeeks({
    api: stack.api,
    logger: silentLogger(),
    signal: demo.signal,
    random: seeded(5),
    publicUrl: stack.baseUrl,
    waitMs: 0,
    pollMs: 50,
    lookers: (except) => stack.lobbyLookers(except),
    moveDelayMs: 0,
    registry: bots,
  }).catch(() => undefined);
  chromium = await openChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  demo.abort();
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
const gameIdOf = (page: Page) => new URL(page.url()).pathname.split('/').at(-1) as string;
const waitForMoves = (page: Page, n: number) =>
  page.waitForFunction((count) => document.querySelectorAll('.moves li').length >= count, n, { timeout: 20_000 });
/** the guest this browser made on its first play */
const me = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('shogi.identity') ?? 'null') as { id: string; name: string });

async function resign(page: Page): Promise<void> {
  await page.click('button:has-text("Resign")');
  // the page's own question, not the browser's confirm()
  await page.click('dialog.confirm-action button.yes');
  await page.locator('.banner.result').waitFor();
}

/** Clicks "Play again" and waits for the next game's page; resolves with its view. */
async function playAgain(page: Page): Promise<GameView> {
  const before = gameIdOf(page);
  await page.click('button:has-text("Play again")');
  await page.waitForURL((u) => u.pathname.startsWith('/games/') && !u.pathname.endsWith(before), { timeout: 15_000 });
  await page.locator('.board .piece').first().waitFor();
  return stack.api.game(gameIdOf(page));
}

test('a newcomer plays an engine bot from the lobby at the level and on the clock chosen', async () => {
  const page = await chromium.contextAs(null);
  await page.goto(url('/'));
  // 1. the dialog lists the eight levels; the quick pairings are written as players write clocks
  await page.click('#play-computer');
  const level = page.locator('#create-level');
  await level.waitFor();
  expect(await level.locator('option').allTextContents()).toEqual([
    'Level 1 (weakest)',
    ...[2, 3, 4, 5, 6, 7].map((n) => `Level ${n}`),
    'Level 8 (strongest)',
  ]);
  expect(await page.locator('.quick .quick-seek strong').allTextContents()).toEqual([
    '3|10',
    '10|30',
    'No clock',
    'Play the bot',
  ]);
  // an engine runs here: the levels are its own, and nothing says otherwise
  expect(await page.locator('#create-no-engine').isHidden()).toBe(true);
  expect(await page.locator('#computer-no-engine').isHidden()).toBe(true);
  // an engine game is never rated: the box is greyed out
  expect(await page.locator('#create-rated').isDisabled()).toBe(true);
  await page.selectOption('#create-level', { label: 'Level 2' });
  await page.selectOption('#create-clock', 'byoyomi');
  await page.fill('#create-minutes', '3');
  await page.fill('#create-byoyomi', '10');
  await page.fill('#create-periods', '1');
  await page.selectOption('#create-color', 'sente');
  await page.screenshot({ path: join(ARTIFACTS, 'web-lobby-create.png'), fullPage: true });
  await page.click('#create-submit');

  // 2. the game: against level 2, with that clock, the newcomer at the bottom as sente
  await page.waitForURL('**/games/*');
  await page.locator('.game-info .spectators').waitFor();
  expect(await page.locator('.game-info').textContent()).toMatch(/3\|10 byoyomi · casual/);
  expect(await page.locator('.player-bar.top .name').textContent()).toBe('Engine level 2');
  expect(await page.locator('.clock .time').allTextContents()).toEqual(['3:00', '3:00']);
  const game = await stack.api.game(gameIdOf(page));
  expect(game.players.sente.id).toBe((await me(page)).id);

  // 3. a move, and the engine answers it
  await page.click('.board [data-sq="7g"]');
  await page.click('.board [data-sq="7f"]');
  await waitForMoves(page, 2);
  await resign(page);
  expect(await page.locator('.banner.result').textContent()).toMatch(/Gote \(Engine level 2\) wins by resignation/);
});

test('Play again after a bot game: the same bot and clock, the colours swapped', async () => {
  // 1. a Fischer game against level 1, ended by resigning from the page
  const guest = await stack.api.createPlayer('again-guest');
  const fischer = { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 } as const;
  const created = await fetch(url('/api/bots/engine-1/games'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${guest.token}` },
    body: JSON.stringify({ side: 'sente', timeControl: fischer }),
  });
  expect(created.status).toBe(201);
  const first = (await created.json()) as GameView;
  const page = await chromium.contextAs(guest);
  await page.goto(url(`/games/${first.id}`));
  await page.locator('.board .piece').first().waitFor();
  await resign(page);
  // only a bot game offers to play again; a person's offers a rematch
  expect(await page.locator('button:has-text("Rematch")').isVisible()).toBe(false);

  // 2. the next game at once: the bot is sente now and moves first, on the same clock
  const next = await playAgain(page);
  expect([next.players.sente.id, next.players.gote.id]).toEqual([first.players.gote.id, guest.id]);
  expect(next.timeControl).toEqual(fischer);
  expect(await page.locator('.player-bar.bottom .name').textContent()).toBe('again-guest');
  expect(await page.locator('.game-info').textContent()).toMatch(/5\+3 Fischer · casual/);
  await waitForMoves(page, 1);
  await resign(page);
});

test('Play again after a game with bot-lobby: it accepts the offer on its lobby socket', async () => {
  // 1. a quick seek nobody else takes: bot-lobby answers it
  const page = await chromium.contextAs(null);
  await page.goto(url('/'));
  await page.click('.quick .quick-seek:has-text("3|10")');
  await page.waitForURL('**/games/*', { timeout: 15_000 });
  await page.locator('.board .piece').first().waitFor();
  const first = await stack.api.game(gameIdOf(page));
  const guest = await me(page);
  const mySide = first.players.sente.id === guest.id ? 'sente' : 'gote';
  expect(first.players[mySide === 'sente' ? 'gote' : 'sente'].name).toBe('bot-lobby');
  await resign(page);

  // 2. Play again: the offer waits for bot-lobby, which accepts it; colours swapped, same clock
  const next = await playAgain(page);
  expect(next.players[mySide === 'sente' ? 'gote' : 'sente'].id).toBe(guest.id);
  expect(next.timeControl).toEqual(first.timeControl);
  await resign(page);
});
