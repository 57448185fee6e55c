/**
 * The opening explorer beside the analysis board, in headless Chromium against a real gateway:
 * imported records (the masters' tree) are projected; the board lists the moves played from the
 * start with players' notation, a click on one plays it on the board and the explorer follows
 * to the new position; the game page links its position to the explorer. No CSP report.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catchUp, importRecord } from '@shogi/store';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
const gameIds: string[] = [];

beforeAll(async () => {
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, worker: false, extras: { web: { root: webRoot } } });
  for (const f of readdirSync(ROOT).sort().slice(0, 6)) {
    const r = await importRecord(stack.db, readFileSync(join(ROOT, f)), f);
    if (r.ok) gameIds.push(r.gameId);
  }
  await catchUp(stack.db);
  chromium = await openChromium();
});

afterAll(async () => {
  await chromium?.close();
  await bounded('stack', stack?.close(), 30_000);
  removeWebClient(webRoot);
});

afterEach(() => {
  expect(chromium.takeReports()).toEqual({ violations: [], console: [], unprotected: [] });
});

test('the explorer lists the masters’ moves; a click plays one and the explorer follows', async () => {
  const page = await chromium.contextAs(null);
  await page.goto(`${stack.baseUrl}/analysis`);
  await page.click('.explorer-tab[data-tree="masters"]');
  const rows = page.locator('.explorer-move');
  await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(0);
  const first = await rows.first().getAttribute('data-usi');
  expect(await rows.first().locator('.explorer-notation').textContent()).toMatch(/^▲/);
  await rows.first().click();
  // the move is on the board's line, and the explorer now shows gote's replies
  await expect.poll(() => page.inputValue('#analysis-sfen'), { timeout: 10_000 }).toMatch(/ w /);
  await expect
    .poll(
      async () =>
        (await rows.count()) > 0 && /^△/.test((await rows.first().locator('.explorer-notation').textContent()) ?? ''),
      {
        timeout: 10_000,
      },
    )
    .toBe(true);
  expect(first).toMatch(/^[1-9][a-i][1-9][a-i]/);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'web-explorer.png'), fullPage: true });
});

test('the game page links its position to the explorer', async () => {
  const page = await chromium.contextAs(null);
  await page.goto(`${stack.baseUrl}/games/${gameIds[0]}`);
  const link = page.locator('a.explorer-link');
  await expect.poll(() => link.getAttribute('href'), { timeout: 10_000 }).toMatch(/^\/analysis\?sfen=/);
  await link.click();
  await page.waitForURL('**/analysis?sfen=*');
  await expect.poll(() => page.locator('.explorer').count(), { timeout: 10_000 }).toBe(1);
});
