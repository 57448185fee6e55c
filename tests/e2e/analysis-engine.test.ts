/**
 * The analysis board's engine in Chromium, with the real engine role (Fairy-Stockfish, one
 * engine): the board opened from a position, the "Engine" switch turned on (its code a chunk
 * of its own, fetched only then, the first page staying under 60 kB of JavaScript gzipped),
 * depth lines and a best line shown, a move played on the board and the evaluation following
 * it (a mate in 3 becoming a mate in 2), at 1366×900 and 390×844. Screenshots in
 * test-artifacts/analysis-engine*.png. Skipped,
 * saying why, where Fairy-Stockfish is missing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack, startStackEngines } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

const HAS_ENGINE = existsSync(DEFAULT_ENGINE_PATH);
if (!HAS_ENGINE)
  console.warn(
    `analysis-engine: skipped: ${DEFAULT_ENGINE_PATH} is missing (apt-get install fairy-stockfish, as npm start does)`,
  );

/** Sente mates in 3 (two golds in hand, a pawn on 5d): 5d5c+ 5a6a G*6b (as the integration tests). */
const MATE_IN_3 = '4k4/9/9/4P4/9/9/9/9/4K4 b 2G 1';
/** After 7g7f 3c3d: an opening the engine searches deeper for seconds. */
const OPENING = 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3';
const FIRST_PAGE_MAX_GZIP = 60_000;

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
let engines: RunningEngineWorker | null = null;

describe.skipIf(!HAS_ENGINE)('the analysis board’s engine', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    webRoot = await buildWebClient();
    stack = await startStack({
      listen: true,
      extras: { web: { root: webRoot } },
      config: { positionAnalysis: { maxDepth: 20, maxMs: 5_000 } },
    });
    engines = await startStackEngines(stack, { path: DEFAULT_ENGINE_PATH, workers: 1, hashMb: 16, analysisDepth: 6 });
    chromium = await openChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await chromium?.close();
    await engines?.close();
    await bounded('stack', stack?.close(), 30_000);
    removeWebClient(webRoot);
  });

  afterEach(() => {
    expect(chromium.takeReports()).toEqual({ violations: [], console: [], unprotected: [] });
  });

  test('the engine is a chunk of its own; the first page stays under 60 kB of JavaScript gzipped', () => {
    const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
    const firstPage = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(firstPage.length).toBeGreaterThan(0);
    expect(firstPage.some((f) => f.includes('live-engine'))).toBe(false);
    const gzipped = firstPage.reduce(
      (sum, f) => sum + gzipSync(readFileSync(join(webRoot, f)), { level: 9 }).length,
      0,
    );
    expect(gzipped).toBeLessThan(FIRST_PAGE_MAX_GZIP);
    expect(readdirSync(join(webRoot, 'assets')).filter((f) => /^live-engine-.*\.js$/.test(f))).toHaveLength(1);
  });

  /** Records every depth the panel shows, in order: the updates, not only the last. */
  const recordDepths = (page: Page) =>
    page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { depthsShown: string[] }).depthsShown = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.live-depth')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  const depthsShown = async (page: Page) =>
    (await page.evaluate(() => (window as unknown as { depthsShown: string[] }).depthsShown.splice(0))).map((text) =>
      Number(text.match(/\d+/)?.[0]),
    );
  const lineShown = (page: Page) => page.locator('.live-line').first().textContent();

  async function openBoard(name: string, sfen: string, width: number, height: number) {
    const who = await stack.api.createPlayer(name);
    const page: Page = await chromium.contextAs(who, width);
    await page.setViewportSize({ width, height });
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/live-engine-.*\.js$/.test(r.url())) chunks.push(r.url());
    });
    await page.goto(`${stack.baseUrl}/analysis?sfen=${sfen.replaceAll(' ', '_')}`);
    const toggle = page.locator('button.live-toggle');
    await toggle.waitFor();
    return { page, chunks, toggle };
  }

  test.each([
    ['', 1366, 900],
    ['-phone', 390, 844],
  ] as const)('turned on, it follows the position shown by depth (%s %d×%d)', async (suffix, width, height) => {
    const { page, chunks, toggle } = await openBoard(`opening${suffix || '-desk'}`, OPENING, width, height);

    // 1. the board from a position: the switch is off, nothing of the engine is loaded
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(chunks).toEqual([]);

    // 2. on: the chunk comes, then depth after depth, and the best line for sente (▲) in Japanese
    await recordDepths(page);
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const before: number[] = [];
    await expect.poll(async () => before.push(...(await depthsShown(page))), { timeout: 20_000 }).toBeGreaterThan(2);
    expect(before).toEqual([...before].sort((a, b) => a - b));
    expect(chunks).toHaveLength(1);
    expect(await lineShown(page)).toMatch(/^▲/);
    expect(await page.locator('.live-score').textContent()).toMatch(/^([+−]\d+\.\d\d|0\.00)$/);
    await page.screenshot({ path: join(ARTIFACTS, `analysis-engine${suffix}.png`), fullPage: true });

    // 3. a move on the board (2g2f): the new position is searched from depth 1, gote's line (△)
    await page.click('.board [data-sq="2g"]');
    await page.click('.board [data-sq="2f"]');
    await expect.poll(() => lineShown(page), { timeout: 20_000 }).toMatch(/^△/);
    // a free board has no game line to go back to
    expect(await page.locator('.back-to-game').isVisible()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, `analysis-engine-moved${suffix}.png`), fullPage: true });

    // 4. off: the panel empties and the engine is free again; the chunk was fetched once
    await toggle.click();
    expect(await page.locator('.live-score').count()).toBe(0);
    const pool = (engines as RunningEngineWorker).pool;
    await expect.poll(() => pool.stats.busy, { timeout: 10_000 }).toBe(0);
    expect(chunks).toHaveLength(1);
    await page.context().close();
  });

  test('the score follows the moves and variations: a mate in 3, in 2 after the right move, in 3 again back', async () => {
    const { page, toggle } = await openBoard('mate', MATE_IN_3, 1366, 900);
    await toggle.click();
    const score = () => page.locator('.live-score').textContent();
    await expect.poll(score, { timeout: 20_000 }).toBe('Mate in 3 for sente');
    // the best line in Japanese notation, as the move list writes it: ▲５三歩成 first
    await expect.poll(() => lineShown(page)).toMatch(/^▲５三歩成 △[４６]一玉 ▲[４６]二金$/);
    expect(Number(await page.locator('.live-bar').getAttribute('aria-valuenow'))).toBe(100);
    // the best move as an arrow on the board, as the game analysis draws its own
    await expect.poll(() => page.locator('.board-marks .arrow').count()).toBe(1);
    await page.click('.board [data-sq="5d"]');
    await page.click('.board [data-sq="5c"]');
    await page.click('dialog.promotion button[value="promote"]');
    await expect.poll(score, { timeout: 20_000 }).toBe('Mate in 2 for sente');
    // the king steps aside and a gold dropped beside it mates: △４一玉 ▲４二金 or △６一玉 ▲６二金
    await expect.poll(() => lineShown(page)).toMatch(/^△[４６]一玉 ▲[４６]二金$/);
    await page.screenshot({ path: join(ARTIFACTS, 'analysis-engine-mate.png'), fullPage: true });
    await page.click('.nav-back');
    await expect.poll(score, { timeout: 20_000 }).toBe('Mate in 3 for sente');
    await toggle.click();
    await expect.poll(() => page.locator('.board-marks .arrow').count()).toBe(0);
    await page.context().close();
  });
});
