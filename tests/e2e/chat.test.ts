/**
 * The game page's chat in headless Chromium against a real gateway and worker, at 1366×900 and
 * 390×844: two players talk in the players' room, a spectator in the spectators' room (which the
 * players read only once the game has ended), markup stays text, *Mute opponent* hides the
 * opponent's lines (not the page's own) and is remembered, and the server's rate limit reads as
 * a sentence. On a phone the chat starts folded and the board and both clocks stay in view as
 * lines arrive. Screenshots go to test-artifacts/chat-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;

beforeAll(async () => {
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, extras: { web: { root: webRoot } } });
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
const VIEWPORTS = [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

type Who = Awaited<ReturnType<Stack['api']['createPlayer']>>;

async function open(who: Who, gameId: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await chromium.contextAs(who, viewport.width, viewport.width < 600);
  await page.setViewportSize(viewport);
  await page.goto(url(`/games/${gameId}`));
  await page.locator('.board .piece').first().waitFor();
  return page;
}

/** The chat unfolded (a phone starts with it folded). */
async function unfold(page: Page): Promise<void> {
  if (!(await page.locator('details.chat').evaluate((d) => (d as HTMLDetailsElement).open)))
    await page.locator('details.chat > summary').click();
}

const lines = (page: Page) => page.locator('.chat-lines li').allTextContents();
const say = async (page: Page, text: string) => {
  await page.getByRole('textbox', { name: 'Chat message' }).fill(text);
  await page.getByRole('textbox', { name: 'Chat message' }).press('Enter');
};

/** Where the board and both clocks are against the window (game-edges.test.ts asks the same). */
const inView = (page: Page) =>
  page.evaluate(() => {
    const inside = (selector: string) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= window.innerHeight ? 'in view' : `${selector}: ${r?.top}..${r?.bottom}`;
    };
    return {
      scrollY: window.scrollY,
      board: inside('.board-box .board'),
      topClock: inside('.player-bar.top .clock'),
      bottomClock: inside('.player-bar.bottom .clock'),
    };
  });
const IN_VIEW = { scrollY: 0, board: 'in view', topClock: 'in view', bottomClock: 'in view' };

const MARKUP = ['<img src=x onerror="window.pwned=1">', '<b>x</b>'];

describe.each(VIEWPORTS)('the chat at %s size', (name, viewport) => {
  test('players, a spectator, markup as text, mute, the rate limit', async () => {
    const clock = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;
    const ann = await stack.api.createPlayer(`chat-${name}-ann`);
    const ben = await stack.api.createPlayer(`chat-${name}-ben`);
    const cat = await stack.api.createPlayer(`chat-${name}-cat`);
    const game = await stack.api.createGame({ sente: ann.id, gote: ben.id, timeControl: clock });
    const [annPage, benPage, catPage] = [
      await open(ann, game.id, viewport),
      await open(ben, game.id, viewport),
      await open(cat, game.id, viewport),
    ];
    // 1. on a phone the chat is folded under the board; lines arriving move nothing
    const folded = !(await annPage.locator('details.chat').evaluate((d) => (d as HTMLDetailsElement).open));
    expect(folded).toBe(name === 'phone');
    for (const page of [annPage, benPage, catPage]) await unfold(page);

    // 2. the players talk in the players' room; the spectator does not read it
    await say(annPage, 'Hello ben, good luck');
    await expect.poll(() => lines(benPage)).toEqual([`chat-${name}-ann Hello ben, good luck`]);
    await say(benPage, 'You too');
    await expect
      .poll(() => lines(annPage))
      .toEqual([`chat-${name}-ann Hello ben, good luck`, `chat-${name}-ben You too`]);

    // 3. markup is text: the characters typed show, no element is made, no script runs
    for (const text of MARKUP) await say(benPage, text);
    await expect
      .poll(() => lines(annPage))
      .toEqual([
        `chat-${name}-ann Hello ben, good luck`,
        `chat-${name}-ben You too`,
        ...MARKUP.map((t) => `chat-${name}-ben ${t}`),
      ]);
    for (const page of [annPage, benPage]) {
      expect(await page.locator('.chat-lines img, .chat-lines b').count()).toBe(0);
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    }

    // 4. the spectator writes in the spectators' room, which the players do not read yet
    await say(catPage, 'Nice opening');
    await expect.poll(() => lines(catPage)).toEqual([`chat-${name}-cat Nice opening`]);
    expect(await catPage.locator('.chat-lines').textContent()).not.toContain('Hello ben');
    expect(await annPage.getByRole('tab', { name: 'Spectators' }).isVisible()).toBe(false);
    expect(await annPage.locator('.chat-lines').textContent()).not.toContain('Nice opening');
    // a player may not write there either while the game goes on
    const early = await fetch(url(`/api/games/${game.id}/chat`), {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'spectator', text: 'psst' }),
    });
    expect(early.status).toBe(403);
    expect(((await early.json()) as { code: string }).code).toBe('SPECTATOR_ROOM_CLOSED');
    await annPage.screenshot({ path: join(ARTIFACTS, `chat-player-${name}.png`), fullPage: true });
    await catPage.screenshot({ path: join(ARTIFACTS, `chat-spectator-${name}.png`), fullPage: true });

    // 5. mute: ben's lines go from ann's page, hers stay, and so does the page's own result line
    await annPage.getByRole('button', { name: 'Mute opponent' }).click();
    expect(await annPage.getByRole('button', { name: 'Mute opponent' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => lines(annPage)).toEqual([`chat-${name}-ann Hello ben, good luck`]);
    // any ending before both sides have moved is an abort: two moves first
    for (const [ply, who, usi] of [
      [0, ann, '7g7f'],
      [1, ben, '3c3d'],
    ] as const) {
      await expect.poll(async () => (await stack.api.game(game.id)).ply, { timeout: 10_000 }).toBe(ply);
      expect((await stack.api.submitMove(game.id, who.token, { usi, ply })).status).toBe(202);
    }
    await expect.poll(async () => (await stack.api.game(game.id)).ply, { timeout: 10_000 }).toBe(2);
    expect((await stack.api.resign(game.id, ben.token)).status).toBe(202);
    const result = `☗ Sente (chat-${name}-ann) wins by resignation.`;
    await expect
      .poll(() => lines(annPage), { timeout: 10_000 })
      .toEqual([`chat-${name}-ann Hello ben, good luck`, result]);
    await say(benPage, 'gg');
    await expect.poll(() => lines(benPage)).toContain(`chat-${name}-ben gg`);
    expect(await lines(annPage)).not.toContain(`chat-${name}-ben gg`);

    // 6. once the game has ended the players read the spectators' room too, its history included
    await annPage.getByRole('tab', { name: 'Spectators' }).click();
    await expect.poll(() => lines(annPage)).toEqual([`chat-${name}-cat Nice opening`]);
    await annPage.screenshot({ path: join(ARTIFACTS, `chat-muted-ended-${name}.png`), fullPage: true });

    // 7. the mute is remembered by the browser; the history loads with the page
    await annPage.reload();
    await annPage.locator('.board .piece').first().waitFor();
    await unfold(annPage);
    expect(await annPage.getByRole('button', { name: 'Mute opponent' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => lines(annPage)).toEqual([`chat-${name}-ann Hello ben, good luck`]);
    await annPage.getByRole('button', { name: 'Mute opponent' }).click();
    await expect.poll(() => lines(annPage)).toContain(`chat-${name}-ben gg`);

    // 8. the server's limit (5 lines in 10 s by default) reads as a sentence; the text stays to send again
    const note = benPage.locator('.chat-note');
    for (let i = 0; i < 8 && (await note.textContent()) === ''; i++) {
      await say(benPage, `line ${i}`);
      await benPage.waitForTimeout(100);
    }
    await expect
      .poll(() => note.textContent())
      .toBe('You are writing too fast: wait a few seconds, then send your line again.');
    expect(await benPage.getByRole('textbox', { name: 'Chat message' }).inputValue()).toMatch(/^line \d$/);
    await benPage.screenshot({ path: join(ARTIFACTS, `chat-rate-limit-${name}.png`), fullPage: true });
  });

  test('on a phone the folded chat leaves the board and both clocks in view as lines arrive', async () => {
    const ann = await stack.api.createPlayer(`fold-${name}-ann`);
    const ben = await stack.api.createPlayer(`fold-${name}-ben`);
    const game = await stack.api.createGame({
      sente: ann.id,
      gote: ben.id,
      timeControl: { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 },
    });
    const annPage = await open(ann, game.id, viewport);
    const benPage = await open(ben, game.id, viewport);
    await unfold(benPage);
    if (name === 'desktop') await unfold(annPage);
    expect(await inView(annPage)).toEqual(IN_VIEW);
    for (const text of ['one', 'two', 'three']) await say(benPage, text);
    if (name === 'phone')
      await expect.poll(() => annPage.locator('details.chat > summary').textContent()).toBe('Chat (3)');
    else await expect.poll(async () => (await lines(annPage)).length).toBe(3);
    expect(await inView(annPage)).toEqual(IN_VIEW);
    await annPage.screenshot({ path: join(ARTIFACTS, `chat-folded-${name}.png`) });
  });
});

test("the first page's JavaScript, the chat included, stays under 60 kB gzipped (issue 44)", () => {
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1] as string);
  expect(scripts.length).toBeGreaterThan(0);
  const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(join(webRoot, file))).length, 0);
  expect(gzipped).toBeLessThan(60_000);
});
