/**
 * The game page's move list in Japanese as players write it (KI2: ▲５八金右, △５二金左, △同　銀,
 * a drop without 打 where no piece on the board reaches the square) in headless Chromium at
 * 1366×900 and 390×844; the settings' KIF notation (the origin instead of the words) and back;
 * and the KI2 download beside the moves, which the rules package reads back to the same game.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRecord } from '@shogi/rules';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;

beforeAll(async () => {
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, worker: false, extras: { web: { root: webRoot } } });
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

// both golds of each side reach the square in front of its king: the words tell which one went
const CSA = [
  'V2.2',
  'N+ki2-sente',
  'N-ki2-gote',
  'PI',
  '+',
  '+4958KI',
  '-4152KI',
  '+7776FU',
  '-3334FU',
  '+8822UM',
  '-3122GI',
  '+0045KA',
  '-6172KI',
  '%TORYO',
  '',
].join('\n');
const USI = ['4i5h', '4a5b', '7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', '6a7b'];
const KI2 = ['▲５八金右', '△５二金左', '▲７六歩', '△３四歩', '▲２二角成', '△同　銀', '▲４五角', '△７二金'];
const KIF = [
  '５八金(49)',
  '５二金(41)',
  '７六歩(77)',
  '３四歩(33)',
  '２二角成(88)',
  '同　銀(31)',
  '４五角打',
  '７二金(61)',
];

async function importGame(): Promise<string> {
  const guest = await stack.api.createPlayer('importer');
  const res = await fetch(url('/api/import'), {
    method: 'POST',
    headers: { 'content-type': 'text/plain', authorization: `Bearer ${guest.token}` },
    body: CSA,
  });
  const body = (await res.json()) as { gameId: string };
  expect(res.status).toBe(201);
  return body.gameId;
}

const moveTexts = async (page: Page): Promise<string[]> => {
  await page.waitForFunction((n) => document.querySelectorAll('.moves li').length >= n, USI.length, {
    timeout: 10_000,
  });
  return page.locator('.moves .jp').allTextContents();
};

describe('Japanese notation as players write it', () => {
  test('the move list in KI2 at both sizes, KIF by the settings and back, the .ki2 download', async () => {
    const gameId = await importGame();
    const page = await chromium.contextAs(null, 1366);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(url(`/games/${gameId}`));
    expect(await moveTexts(page)).toEqual(KI2);
    expect(await page.locator('.moves .usi').allTextContents()).toEqual(USI);
    await page.screenshot({ path: join(ARTIFACTS, 'web-ki2-moves.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await moveTexts(page)).toEqual(KI2);
    await page.locator('.moves li').last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'web-ki2-moves-phone.png'), fullPage: true });

    // the settings keep KIF's notation, with the origin, for those who want it
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(url('/settings'));
    expect(await page.locator('.setting label').filter({ hasText: '▲５八金右' }).count()).toBe(1);
    await page.check('#notation-kif');
    await page.goto(url(`/games/${gameId}`));
    expect(await moveTexts(page)).toEqual(KIF);
    await page.goto(url('/settings'));
    await page.check('#notation-japanese');
    await page.goto(url(`/games/${gameId}`));
    expect(await moveTexts(page)).toEqual(KI2);

    // the download beside the moves: KI2 in Shift_JIS, the same moves read back
    const link = page.locator('.downloads a[data-format="ki2"]');
    expect(await link.textContent()).toBe('KI2');
    const href = await link.getAttribute('href');
    expect(href).toBe(`/api/games/${gameId}.ki2`);
    const file = await fetch(url(href ?? ''));
    expect(file.headers.get('content-type')).toBe('text/plain; charset=Shift_JIS');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const text = new TextDecoder('shift_jis').decode(bytes);
    for (const move of KI2) expect(text).toContain(move);
    expect(text).toContain('まで8手で後手の勝ち');
    const back = decodeRecord(bytes);
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.format).toBe('ki2');
    expect(back.value.record.moves).toEqual(USI);
  });
});
