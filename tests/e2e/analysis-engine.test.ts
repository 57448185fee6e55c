/**
 * The analysis board's engine in Chromium, with the real engine role (Fairy-Stockfish, one
 * engine): the board opened from a position, the "Engine" switch turned on (its code a chunk
 * of its own, fetched only then, the first page staying under 60 kB of JavaScript gzipped),
 * depth lines and a best line shown, a move played on the board and the evaluation following
 * it, at 1366×900 and 390×844. Screenshots in test-artifacts/analysis-engine*.png. Skipped,
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

  const viewports = [
    ['', 1366, 900],
    ['-phone', 390, 844],
  ] as const;

  test.each(viewports)('turned on, it follows the position shown (%s %d×%d)', async (suffix, width, height) => {
    const who = await stack.api.createPlayer(`analyst${suffix || '-desk'}`);
    const page: Page = await chromium.contextAs(who, width);
    await page.setViewportSize({ width, height });
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/live-engine-.*\.js$/.test(r.url())) chunks.push(r.url());
    });

    // 1. the board from a position: the switch is off, nothing of the engine is loaded
    await page.goto(`${stack.baseUrl}/analysis?sfen=${MATE_IN_3.replaceAll(' ', '_')}`);
    const toggle = page.locator('button.live-toggle');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(chunks).toEqual([]);

    // 2. on: the chunk comes, depth lines follow, and the engine finds the mate and its line
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await page.locator('.live-depth').waitFor({ timeout: 20_000 });
    expect(chunks).toHaveLength(1);
    await expect.poll(() => page.locator('.live-score').textContent(), { timeout: 20_000 }).toBe('Mate in 3 for sente');
    const depth = Number((await page.locator('.live-depth').textContent())?.match(/\d+/)?.[0]);
    expect(depth).toBeGreaterThan(0);
    // the best line in Japanese notation, as the move list writes it: ▲５三歩成 first
    await expect.poll(() => page.locator('.live-line').first().textContent()).toMatch(/^☗?▲?５三歩成/);
    expect(Number(await page.locator('.live-bar').getAttribute('aria-valuenow'))).toBe(100);
    await page.screenshot({ path: join(ARTIFACTS, `analysis-engine${suffix}.png`), fullPage: true });

    // 3. a move on the board: the evaluation follows the new position
    await page.click('.board [data-sq="5d"]');
    await page.click('.board [data-sq="5c"]');
    await page.click('dialog.promotion button[value="promote"]');
    await expect.poll(() => page.locator('.live-score').textContent(), { timeout: 20_000 }).toBe('Mate in 2 for sente');
    // the king steps aside and a gold dropped beside it mates: △４一玉 ▲４二金 or △６一玉 ▲６二金
    await expect.poll(() => page.locator('.live-line').first().textContent()).toMatch(/^△[４６]一玉 ▲[４６]二金$/);
    await page.screenshot({ path: join(ARTIFACTS, `analysis-engine-moved${suffix}.png`), fullPage: true });

    // 4. off: the panel empties and the engine is free again
    await toggle.click();
    expect(await page.locator('.live-score').count()).toBe(0);
    const pool = (engines as RunningEngineWorker).pool;
    await expect.poll(() => pool.stats.busy, { timeout: 10_000 }).toBe(0);
    expect(chunks).toHaveLength(1);
    await page.context().close();
  });
});
