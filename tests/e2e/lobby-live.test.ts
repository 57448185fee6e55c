/**
 * The live lobby in Chromium: a seek one person posts shows to another within a second (the
 * lobby socket's `seeks` messages, no polling) and they pair, while the demo's bot-lobby,
 * told to take seeks at once, leaves the seek to the person looking; and on a server started
 * with ENGINE_PATH pointing nowhere the Create a game dialog says the levels play built-in
 * moves. Screenshots at 1366×900 and 390×844 go to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BotRegistry } from '@shogi/gateway';
import type { BotList } from '@shogi/protocol';
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
let engineClient: EngineClient | null = null;
const demo = new AbortController();

beforeAll(async () => {
  webRoot = await buildWebClient();
  const bots = new BotRegistry();
  stack = await startStack({ listen: true, extras: { bots, web: { root: webRoot } } });
  // the engine role as `npm start` runs it, with ENGINE_PATH pointing nowhere: it does not start
  const engines = await startStackEngines(stack, {
    path: '/nonexistent/fairy-stockfish',
    workers: 1,
    hashMb: 16,
    analysisDepth: 8,
  });
  expect(engines).toBeNull();
  engineClient = await EngineClient.start({ ...REDIS, prefix: stack.config.queuePrefix, logger: silentLogger() });
  await startHouseBots({
    baseUrl: stack.baseUrl,
    housePlayer: stack.housePlayer,
    registry: bots,
    logger: silentLogger(),
    engine: engineClient,
    moveDelayMs: 0,
  });
  // told to take any seek at once: only someone else looking at the lobby holds it back
  answerSeeks({
    api: stack.api,
    logger: silentLogger(),
    signal: demo.signal,
    random: seeded(3),
    publicUrl: stack.baseUrl,
    waitMs: 0,
    pollMs: 50,
    moveDelayMs: 0,
    lookers: (except) => stack.lobbyLookers(except),
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
  removeWebClient(webRoot);
});

afterEach(() => {
  expect(chromium.takeReports()).toEqual({ violations: [], console: [], unprotected: [] });
});

const url = (path: string) => `${stack.baseUrl}${path}`;

async function guest(name: string): Promise<{ id: string; name: string; token: string }> {
  const res = await fetch(url('/api/players'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return (await res.json()) as { id: string; name: string; token: string };
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

test('a seek shows to another person in the lobby within a second, and they pair', async () => {
  const [alice, bob] = await Promise.all([guest('alice'), guest('bob')]);
  const seeker = await chromium.contextAs(alice, 1366);
  const looker = await chromium.contextAs(bob, 1366);
  await looker.goto(url('/'));
  await looker.locator('.seek-list .empty').waitFor();
  // bob's lobby socket is open: he looks at the lobby
  await expect.poll(() => stack.lobbyLookers([alice.id]), { timeout: 5_000 }).toBe(1);
  await seeker.goto(url('/'));
  await seeker.locator('.seek-list .empty').waitFor();

  await seeker.click('.quick .quick-seek:has-text("10|30")');
  await seeker.locator('.waiting:has-text("Looking for an opponent")').waitFor();
  const posted = Date.now();
  const row = looker.locator('.seek-list tr[data-seek]');
  await row.waitFor({ timeout: 1_000 });
  expect(Date.now() - posted).toBeLessThan(1_000);
  expect(await row.locator('.player').textContent()).toBe('alice');
  await shoot(looker, 'lobby-live-seek');
  // on the phone the Play button is in view, the mode and colour under the clock
  const play = await row.locator('button:has-text("Play")').boundingBox();
  expect(play !== null && play.x + play.width <= 390).toBe(true);
  expect(await row.locator('.seek-terms').textContent()).toBe('casual · random');
  expect(await row.locator('.seek-terms').isVisible()).toBe(true);

  // the bot, free to take it at once, left it to bob all along
  await looker.setViewportSize({ width: 1366, height: 900 });
  await row.locator('button:has-text("Play")').click();
  await Promise.all([seeker.waitForURL('**/games/*'), looker.waitForURL('**/games/*')]);
  expect(new URL(seeker.url()).pathname).toBe(new URL(looker.url()).pathname);
  const game = await stack.api.game(new URL(looker.url()).pathname.split('/').pop() as string);
  expect([game.players.sente.name, game.players.gote.name].sort()).toEqual(['alice', 'bob']);
});

const NO_ENGINE = 'This server has no shogi engine installed, so every level plays simple built-in moves.';

test('without an engine, the home page and the dialog say the levels play built-in moves', async () => {
  const bots = (await (await fetch(url('/api/bots'))).json()) as BotList;
  expect(bots.engine).toEqual({ running: false });
  expect(bots.bots.filter((b) => b.level !== undefined)).toHaveLength(8);
  const page = await chromium.contextAs(null, 1366);
  await page.goto(url('/'));
  // the home page's Play the computer, beside its levels
  const home = page.locator('#computer-no-engine');
  await home.waitFor();
  expect(await home.textContent()).toBe(NO_ENGINE);
  expect(await page.locator('.computer-play #computer-level option').count()).toBe(8);
  await shoot(page, 'lobby-no-engine-home');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.click('#play-computer');
  await page.locator('#create-level option').first().waitFor({ state: 'attached' });
  const note = page.locator('#create-no-engine');
  await note.waitFor();
  expect(await note.textContent()).toBe(NO_ENGINE);
  await shoot(page, 'lobby-no-engine');
  // it speaks of the computer's levels only
  await page.click('#create-opponent-anyone');
  expect(await note.isHidden()).toBe(true);
});
