/**
 * The web client's "Import a game" page in headless Chromium against a real gateway: a KIF
 * pasted as text and a Shift_JIS KIF chosen as a file each open the imported game's page with
 * its moves; a record the rules refuse stays on the page with the server's ply and reason. A
 * browser with no player yet gets a guest, as for play. No CSP report in any page.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

const SAMPLES = join(import.meta.dirname, '../integration/records');
const sample = (name: string) => readFileSync(join(SAMPLES, name), 'utf8');

let stack: Stack;
let chromium: Chromium;
let webRoot: string;

beforeAll(async () => {
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, worker: false, extras: { web: { root: webRoot } } });
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

const url = (path: string) => `${stack.baseUrl}${path}`;
const movesShown = async (page: import('playwright-core').Page, n: number) => {
  await page.waitForFunction((count) => document.querySelectorAll('.moves li').length >= count, n, {
    timeout: 10_000,
  });
  return page.locator('.moves li .usi').allTextContents();
};

describe('the import page', () => {
  test('pasted text opens the imported game; a refused record shows its ply and reason', async () => {
    // no player in this browser yet: the page makes a guest
    const page = await chromium.contextAs(null);
    await page.goto(url('/'));
    await page.click('nav a[href="/import"]');
    await page.waitForURL('**/import');
    await page.fill('#import-text', sample('bad-move.kif'));
    await page.click('.import button[type="submit"]');
    const error = page.locator('.import-error');
    await expect.poll(() => error.textContent(), { timeout: 10_000 }).toMatch(/ply 3: illegal move 2h2d/);
    expect(page.url()).toMatch(/\/import$/);
    // the page with the refusal, at both sizes
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, 'web-import.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, 'web-import-phone.png'), fullPage: true });

    await page.fill('#import-text', sample('kifu-for-windows.kif'));
    await page.click('.import button[type="submit"]');
    await page.waitForURL(/\/games\/imp-/);
    expect(await movesShown(page, 5)).toHaveLength(5);
    await expect.poll(() => page.locator('body').textContent()).toContain('山田太郎');
  });

  test('a Shift_JIS file chosen opens its game; the same file again opens the same game', async () => {
    const guest = await stack.api.createPlayer('uploader');
    const page = await chromium.contextAs(guest);
    const file = {
      name: '二枚落ち.kif',
      mimeType: 'application/octet-stream',
      buffer: iconv.encode(sample('handicap.kif'), 'Shift_JIS'),
    };
    await page.goto(url('/import'));
    await page.setInputFiles('#import-file', file);
    await page.click('.import button[type="submit"]');
    await page.waitForURL(/\/games\/imp-/);
    const first = page.url();
    expect(await movesShown(page, 3)).toHaveLength(3);

    await page.goto(url('/import'));
    await page.setInputFiles('#import-file', file);
    await page.click('.import button[type="submit"]');
    await page.waitForURL(/\/games\/imp-/);
    expect(page.url()).toBe(first);
  });
});
