/**
 * The board by keyboard (issue 44, point 11), in headless Chromium against a real gateway and
 * worker: a whole short game played with the keyboard only (no click, no typed USI) at
 * 1366×900 as sente, where the stands stand beside the board, and at 390×844 as gote, where
 * they are rows above and below a flipped board. Each game has a capture, the promotion
 * choice (taken back once with Escape, then answered by keys), a drop from the hand and the
 * mate; the Tab presses needed to reach the board are counted, the labels are read as a
 * screen reader meets them (roles and names), the moves are read from the live region, and
 * ←/→ step through the moves once the focus has left the board. Then the analysis board, the
 * same way. Screenshots with the cursor showing go to test-artifacts/keyboard-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** What a screen reader would name as focused: the focused element's accessible name. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
const movesShown = (page: Page) => page.locator('.moves li .usi').allTextContents();
const waitForMoves = (page: Page, n: number) =>
  page.waitForFunction((count) => document.querySelectorAll('.moves li').length >= count, n, { timeout: 15_000 });
const announced = (page: Page) => page.locator('#announcer').textContent();

/** Presses each key in turn (`ArrowUp*3` presses it three times). */
async function keys(page: Page, ...presses: string[]): Promise<void> {
  for (const p of presses) {
    const [key, times] = p.split('*');
    for (let i = 0; i < Number(times ?? 1); i++) await page.keyboard.press(key as string);
  }
}

/** Tabs from the top of the page until the focus is on the board or a stand; how many it took. */
async function tabsToBoard(page: Page): Promise<number> {
  for (let tabs = 1; tabs <= 100; tabs++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.closest('.board-wrap') != null)) return tabs;
  }
  throw new Error('the board was never reached by Tab');
}

/** The elements of the board and the stands in the tab order: the roving tab stop is one. */
const tabStops = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('.board-wrap button, .board-wrap [tabindex]')].filter(
        (el) => el.tabIndex >= 0,
      ).length,
  );

interface Round {
  readonly name: string;
  readonly viewport: { width: number; height: number };
  readonly side: 'sente' | 'gote';
  /** a silver that takes a pawn into the promotion zone, a gold in hand to mate with */
  readonly sfen: string;
  /** the opponent's reply, over the API */
  readonly reply: string;
  /** the squares and hand pieces the cursor meets, as their labels read */
  readonly silver: string;
  readonly pawn: string;
  readonly promoted: string;
  /** from the promoted silver to the gold on the player's stand: the keys, and what is met on the way */
  readonly toStand: readonly (readonly [string[], string])[];
  /** from the gold to the mating square */
  readonly toMate: readonly (readonly [string[], string])[];
  readonly moves: readonly string[];
}

const ROUNDS: readonly Round[] = [
  {
    name: '1366×900 as sente: the stands beside the board',
    viewport: DESKTOP,
    side: 'sente',
    sfen: '4k4/9/5p2p/5S3/9/9/9/9/4K4 b G 1',
    reply: '1c1d',
    silver: '4d, sente silver',
    pawn: '4c, gote pawn, legal target',
    promoted: '4c, sente promoted silver',
    // right along rank c to file 1, then on to the stand at the board's right, level with the gold
    toStand: [
      [['ArrowRight*3'], '1c, empty'],
      [['ArrowRight'], '1 sente gold in hand'],
      [['ArrowDown'], '1 sente pawn in hand'],
      [['ArrowUp'], '1 sente gold in hand'],
    ],
    toMate: [
      [['ArrowLeft'], '1h, empty, legal target'],
      [['ArrowUp*6'], '1b, empty, legal target'],
      [['ArrowLeft*4'], '5b, empty, legal target'],
    ],
    moves: ['4d4c+', '1c1d', 'G*5b'],
  },
  {
    name: '390×844 as gote: the board flipped, the stands above and below it',
    viewport: PHONE,
    side: 'gote',
    // the same position turned round, gote to move
    sfen: '4k4/9/9/9/9/3s5/P2P5/9/4K4 w g 1',
    reply: '9g9f',
    silver: '6f, gote silver',
    pawn: '6g, sente pawn, legal target',
    promoted: '6g, gote promoted silver',
    // down to the bottom rank as drawn (rank a), on to the stand below it, along to the gold
    toStand: [
      [['ArrowDown*6'], '6a, empty'],
      [['ArrowDown'], '1 gote pawn in hand'],
      [['ArrowLeft'], '1 gote gold in hand'],
    ],
    toMate: [
      [['ArrowUp'], '1a, empty, legal target'],
      [['ArrowUp*7'], '1h, empty, legal target'],
      [['ArrowRight*4'], '5h, empty, legal target'],
    ],
    moves: ['6f6g+', '9g9f', 'G*5h'],
  },
];

describe('the board by keyboard', () => {
  test.each(ROUNDS)('$name: a whole game played with the keyboard only', async (round) => {
    const me = await stack.api.createPlayer(`keys-${round.side}`);
    const them = await stack.api.createPlayer(`keys-other-${round.side}`);
    const game = await stack.api.createGame({
      sente: round.side === 'sente' ? me.id : them.id,
      gote: round.side === 'gote' ? me.id : them.id,
      sfen: round.sfen,
    });
    const page = await chromium.contextAs(me, round.viewport.width);
    await page.setViewportSize(round.viewport);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board .piece').first().waitFor();
    const shot = async (what: string) => {
      // a move's slide finished, so the piece is drawn on its square
      await page.waitForFunction(() => document.getAnimations().length === 0);
      await page.screenshot({ path: join(ARTIFACTS, `keyboard-${round.side}-${what}.png`), fullPage: true });
    };

    // 1. the board is one tab stop, reached in a few presses (each of the 81 squares was one);
    // the cursor starts in the middle, 5e, no move having been played
    expect(await tabStops(page)).toBe(1);
    const tabs = await tabsToBoard(page);
    console.info(`keyboard e2e (${round.viewport.width}px): ${tabs} Tab presses from the top of the page to the board`);
    expect(tabs).toBeLessThanOrEqual(10);
    expect(await focused(page)).toBe('5e, empty');
    // the skip link gets there sooner: Tab, Enter, then past the opponent's name
    await page.reload();
    await page.locator('.board .piece').first().waitFor();
    await keys(page, 'Tab', 'Enter');
    expect(await tabsToBoard(page)).toBeLessThanOrEqual(2);

    // 2. up and right, as the board is drawn, is the silver; its name as a screen reader reads it
    await keys(page, 'ArrowUp', 'ArrowRight');
    expect(await focused(page)).toBe(round.silver);
    expect(await page.getByRole('button', { name: round.silver }).evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await shot('cursor');

    // 3. Enter picks it, Escape lets it go, Space picks it again; up is the pawn, now a target
    await keys(page, 'Enter');
    expect(await page.getByRole('button', { name: round.silver, pressed: true }).count()).toBe(1);
    await keys(page, 'Escape');
    expect(await page.locator('.board .sq.selected').count()).toBe(0);
    await keys(page, ' ', 'ArrowUp');
    expect(await focused(page)).toBe(round.pawn);

    // 4. taking it reaches the promotion zone: the choice has the focus, promoted first; an
    // arrow goes to the other; Escape takes the move back and the cursor is where it was
    await keys(page, 'Enter');
    const chooser = page.getByRole('dialog', { name: 'Promote this piece?' });
    await chooser.waitFor();
    expect(await focused(page)).toBe('Promote (成)');
    await keys(page, 'ArrowDown');
    expect(await focused(page)).toBe('Keep unpromoted (不成)');
    await keys(page, 'Escape');
    expect(await chooser.count()).toBe(0);
    expect(await focused(page)).toBe(round.pawn.replace(', legal target', ''));
    expect((await stack.api.game(game.id)).ply).toBe(0);

    // again, and promote: down to the silver, Enter, up, Enter, an arrow there and back, Enter
    await keys(page, 'ArrowDown', 'Enter', 'ArrowUp', 'Enter');
    await chooser.waitFor();
    await keys(page, 'ArrowDown', 'ArrowUp');
    expect(await focused(page)).toBe('Promote (成)');
    await shot('promotion');
    await keys(page, 'Enter');
    await waitForMoves(page, 1);
    // the live region says the move; the cursor stays on the square it went to
    await expect
      .poll(() => announced(page))
      .toMatch(new RegExp(`^1\\. .*\\(${round.moves[0]?.replace('+', '\\+')}\\)$`));
    expect(await focused(page)).toBe(round.promoted);

    // 5. the opponent answers; the focus stays on the board through the redraw
    const answer = await stack.api.submitMove(game.id, them.token, { usi: round.reply, ply: 1 });
    expect(answer.status).toBe(202);
    await waitForMoves(page, 2);
    expect(await focused(page)).toBe(round.promoted);
    expect(await page.locator('.nav-place').textContent()).toBe('Move 2 / 2');

    // 6. on to the player's stand, the captured pawn beside the gold; the opponent's stand is
    // there to be read, not pressed (it is empty here)
    for (const [presses, label] of round.toStand) {
      await keys(page, ...presses);
      expect(await focused(page), presses.join(' ')).toBe(label);
    }
    // the stand as a screen reader meets it: each piece a button named with its owner and count
    expect(await page.locator('.stand.bottom').ariaSnapshot()).toMatch(
      new RegExp(`button "1 ${round.side} gold in hand".*\\n.*button "1 ${round.side} pawn in hand"`),
    );
    await shot('stand');
    // ←/→ were the cursor's all along: the board still shows the latest move
    expect(await page.locator('.nav-place').textContent()).toBe('Move 2 / 2');
    await keys(page, 'Enter');
    expect(await page.getByRole('button', { name: `1 ${round.side} gold in hand`, pressed: true }).count()).toBe(1);

    // 7. back onto the board and to the mating square, then drop
    for (const [presses, label] of round.toMate) {
      await keys(page, ...presses);
      expect(await focused(page), presses.join(' ')).toBe(label);
    }
    expect(await tabStops(page)).toBe(1);
    await keys(page, 'Enter');
    await waitForMoves(page, 3);
    await page.locator('.banner.result').waitFor();
    expect(await movesShown(page)).toEqual(round.moves);
    expect(await page.locator('.banner.result').textContent()).toMatch(/wins by checkmate/);
    const ended = await stack.api.game(game.id);
    expect(ended.status).toBe('ended');
    await shot('mate');

    // 8. off the board, ← and → step through the moves again, and Shift+Tab comes back to the cursor
    await keys(page, 'Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.board-wrap') == null)).toBe(true);
    await keys(page, 'ArrowLeft');
    expect(await page.locator('.nav-place').textContent()).toBe('Move 2 / 3');
    await keys(page, 'End', 'Shift+Tab');
    expect(await focused(page)).toMatch(round.side === 'sente' ? /^5b, sente gold/ : /^5h, gote gold/);

    // 9. a square the mouse clicked leaves ←/→ to the move list, until ↑ or ↓ moves the cursor
    await page.click('.board [data-sq="5e"]');
    await keys(page, 'ArrowLeft');
    expect(await page.locator('.nav-place').textContent()).toBe('Move 2 / 3');
    expect(await focused(page)).toMatch(/^5e, /);
    await keys(page, 'End', 'ArrowUp', 'ArrowLeft');
    expect(await page.locator('.nav-place').textContent()).not.toBe('Move 2 / 3');
    expect(await focused(page)).toMatch(round.side === 'sente' ? /^6d, / : /^4f, /);
  });

  test('the analysis board, by the same keys: a capture declining promotion, a reply, a drop', async () => {
    const page = await chromium.contextAs(null, DESKTOP.width);
    await page.setViewportSize(DESKTOP);
    await page.goto(
      url(`/analysis?sfen=${encodeURIComponent('4k4/9/5p2p/5S3/9/9/9/9/4K4 b G 1'.replaceAll(' ', '_'))}`),
    );
    await page.locator('.board .piece').first().waitFor();
    expect(await tabStops(page)).toBe(1);
    expect(await tabsToBoard(page)).toBeLessThanOrEqual(10);
    expect(await focused(page)).toBe('5e, empty');

    // the silver takes the pawn and stays a silver (an arrow to the choice "keep", Enter)
    await keys(page, 'ArrowUp', 'ArrowRight', 'Enter', 'ArrowUp', 'Enter');
    await page.getByRole('dialog', { name: 'Promote this piece?' }).waitFor();
    await keys(page, 'ArrowUp', 'Enter');
    await expect.poll(() => announced(page)).toMatch(/^1\. ▲４三銀不成/);
    expect(await focused(page)).toBe('4c, sente silver');

    // gote's reply, on the same board: free moves for either side
    await keys(page, 'ArrowRight*3', 'Enter', 'ArrowDown', 'Enter');
    await expect.poll(() => announced(page)).toMatch(/^2\. △１四歩/);

    // the gold from sente's stand (the pawn beside it) to 5b: mate
    await keys(page, 'ArrowUp', 'ArrowRight');
    expect(await focused(page)).toBe('1 sente gold in hand');
    await page.screenshot({ path: join(ARTIFACTS, 'keyboard-analysis.png'), fullPage: true });
    await keys(page, 'Enter', 'ArrowLeft', 'ArrowUp*6', 'ArrowLeft*4');
    expect(await focused(page)).toBe('5b, empty, legal target');
    await keys(page, 'Enter');
    await expect.poll(() => announced(page)).toMatch(/^3\. ▲５二金/);
    expect(await page.locator('.tree-moves .move').count()).toBe(3);
    // gote to move now: sente's pawn left in hand is there to be read, not pressed
    expect(await page.getByRole('img', { name: '1 sente pawn in hand' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '1 sente pawn in hand' }).count()).toBe(0);
  });
});
