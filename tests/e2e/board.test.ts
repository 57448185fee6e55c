/**
 * The board and the analysis board in headless Chromium against a real gateway, worker and
 * engine role (Fairy-Stockfish at a shallow depth): the stands' counts, a hand piece with no
 * legal drop, the promotion choice on the board, move confirmation, premoves, flipping, the
 * settings remembered across a reload, the sound toggle (WebAudio tones counted in the page),
 * the record downloads and the SFEN, and the analysis board: free moves, a branch and back to
 * the game line, and an engine analysis requested from the page and shown. Screenshots of the
 * game page, the settings and the analysis board at 1366×900 and 390×844 go to test-artifacts/.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ENGINE_PATH, type RunningEngineWorker } from '@shogi/engine-worker';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Stack, startStack, startStackEngines } from '../integration/harness.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
let engines: RunningEngineWorker | null = null;

beforeAll(async () => {
  if (!existsSync(DEFAULT_ENGINE_PATH)) throw new Error(`these tests need Fairy-Stockfish at ${DEFAULT_ENGINE_PATH}`);
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, extras: { web: { root: webRoot } } });
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

const url = (path: string) => `${stack.baseUrl}${path}`;
const movesShown = (page: Page) => page.locator('.moves li .usi').allTextContents();
const waitForMoves = (page: Page, n: number) =>
  page.waitForFunction((count) => document.querySelectorAll('.moves li').length >= count, n, { timeout: 15_000 });
const label = (page: Page, sq: string) => page.locator(`.board [data-sq="${sq}"]`).getAttribute('aria-label');
const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 900 };

/** Counts the tones the page makes: every sound is an oscillator of its AudioContext. */
async function countTones(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { tones: number };
    w.tones = 0;
    const original = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.tones += 1;
      return original.call(this);
    };
  });
}
const tones = (page: Page) => page.evaluate(() => (window as unknown as { tones: number }).tones);

/** Plays `usi` over HTTP once the game is at `ply`. */
async function moveOverApi(gameId: string, token: string, usi: string, ply: number): Promise<void> {
  await expect.poll(async () => (await stack.api.game(gameId)).ply, { timeout: 10_000 }).toBe(ply);
  const answer = await stack.api.submitMove(gameId, token, { usi, ply });
  expect(answer.status, usi).toBe(202);
}

describe('the board', () => {
  test('stands with counts, a drop that cannot be, promotion on the board, confirmation, premoves, flip', async () => {
    const ann = await stack.api.createPlayer('board-ann');
    const ben = await stack.api.createPlayer('board-ben');
    // sente: a pawn on every file and two more in hand (no file left for them), a gold in
    // hand, a silver that may promote on 4c or not
    const game = await stack.api.createGame({
      sente: ann.id,
      gote: ben.id,
      sfen: '4k4/9/8p/5S3/9/9/PPPPPPPPP/9/4K4 b G2P 1',
    });
    const page = await chromium.contextAs(ann, desktop.width);
    await page.setViewportSize(desktop);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board .piece').first().waitFor();

    // the stand: the pawns with their count, the gold alone; the opponent's stand empty
    expect(await page.locator('.stand.bottom .hand-sente [data-hand="1"] .count').textContent()).toBe('2');
    expect(await page.locator('.stand.bottom .hand-sente [data-hand="7"] .count').count()).toBe(0);
    expect(await page.locator('.stand.bottom .hand-sente').getAttribute('aria-label')).toBe(
      "Sente's hand: 1 gold, 2 pawns",
    );
    expect(await page.locator('.stand.top .hand-gote').getAttribute('aria-label')).toBe("Gote's hand: empty");
    expect(await page.locator('.board .koma').count()).toBe(13);

    // a pawn has nowhere to go: the page says why, and lets go of the gold picked before
    await page.click('.hand [data-hand="7"]');
    expect(await page.locator('.board .sq.target').count()).toBeGreaterThan(0);
    await page.click('.hand [data-hand="1"]');
    expect(await page.locator('.side-panel .note').textContent()).toMatch(/No legal drop for the pawn: .*nifu/);
    expect(await page.locator('.hand-piece.selected').count()).toBe(0);
    expect(await page.locator('.board .sq.target').count()).toBe(0);

    // confirmation on, in the settings
    await page.click('.open-settings');
    await page.check('#setting-confirmMoves');
    await page.click('dialog.settings button[value="close"]');

    // the silver to 4c: both forms legal, so the two pieces show over the square
    await page.click('.board [data-sq="4d"]');
    await page.click('.board [data-sq="4c"]');
    const chooser = page.locator('.board dialog.promotion');
    await chooser.waitFor();
    const square = await page.locator('.board [data-sq="4c"]').boundingBox();
    const promote = await chooser.locator('button[value="promote"]').boundingBox();
    if (!square || !promote) throw new Error('not laid out');
    expect(Math.abs(promote.x - square.x)).toBeLessThan(2);
    expect(Math.abs(promote.y - square.y)).toBeLessThan(2); // the promoted piece on the square itself
    await page.screenshot({ path: join(ARTIFACTS, 'board-promotion.png') });
    await chooser.locator('button[value="promote"]').click();

    // held for confirmation: drawn as played, not sent; Cancel takes it back
    await page.locator('.pending.confirming').waitFor();
    expect(await page.locator('.pending').textContent()).toMatch(/Play ▲４三銀成 \(4d4c\+\)\?/);
    expect(await label(page, '4c')).toBe('4c, sente promoted silver');
    await page.click('.pending .cancel-move');
    expect(await label(page, '4d')).toBe('4d, sente silver');
    expect((await stack.api.game(game.id)).ply).toBe(0);
    await page.click('.board [data-sq="4d"]');
    await page.click('.board [data-sq="4c"]');
    await page.click('dialog.promotion button[value="promote"]');
    await page.click('.pending .confirm-move');
    await waitForMoves(page, 1);
    expect(await movesShown(page)).toEqual(['4d4c+']);

    // gote's turn: a premove, shown and waiting; played as soon as gote has moved
    await page.click('.board [data-sq="5i"]');
    await page.click('.board [data-sq="4h"]');
    await page.locator('.pending.premove').waitFor();
    expect(await page.locator('.board .sq.premove').count()).toBe(2);
    expect((await stack.api.game(game.id)).ply).toBe(1);
    await moveOverApi(game.id, ben.token, '1c1d', 1);
    await waitForMoves(page, 3);
    expect(await movesShown(page)).toEqual(['4d4c+', '1c1d', '5i4h']);
    expect(await page.locator('.pending').isVisible()).toBe(false);

    // a premove cancelled is never played
    await page.click('.board [data-sq="4h"]');
    await page.click('.board [data-sq="3h"]');
    await page.locator('.pending.premove').waitFor();
    await page.click('.pending .cancel-premove');
    expect(await page.locator('.board .sq.premove').count()).toBe(0);
    await moveOverApi(game.id, ben.token, '1d1e', 3);
    await waitForMoves(page, 4);
    await page.waitForTimeout(1_000);
    expect((await stack.api.game(game.id)).ply).toBe(4);
    await page.screenshot({ path: join(ARTIFACTS, 'board-game.png'), fullPage: true });
    await page.setViewportSize(phone);
    await page.screenshot({ path: join(ARTIFACTS, 'board-game-phone.png'), fullPage: true });

    // a spectator flips the board: 1i at the top left, gote's name at the bottom, and back
    const watcher = await chromium.contextAs(null, desktop.width);
    await watcher.goto(url(`/games/${game.id}`));
    await waitForMoves(watcher, 4);
    const firstSquare = () => watcher.locator('.board .sq').first().getAttribute('data-sq');
    expect(await firstSquare()).toBe('9a');
    await watcher.click('.board-tools .flip');
    expect(await firstSquare()).toBe('1i');
    expect(await watcher.locator('.player-bar.bottom .name').textContent()).toBe('board-ben');
    expect(await watcher.locator('.stand.bottom .hand').getAttribute('class')).toMatch(/hand-gote/);
    expect(await watcher.locator('.board-tools .flip').getAttribute('aria-pressed')).toBe('true');
    // the kings keep their owners' glyphs whichever way the board is turned: sente's 玉, gote's 王
    const kingGlyph = (owner: string) => watcher.locator(`.board [aria-label$=", ${owner} king"] .kanji`).textContent();
    expect([await kingGlyph('sente'), await kingGlyph('gote')]).toEqual(['玉', '王']);
    await watcher.keyboard.press('f');
    expect([await kingGlyph('sente'), await kingGlyph('gote')]).toEqual(['玉', '王']);
    expect(await firstSquare()).toBe('9a');

    for (const name of ['board-game.png', 'board-game-phone.png', 'board-promotion.png'])
      expect(statSync(join(ARTIFACTS, name)).size, name).toBeGreaterThan(10_000);
  });

  test('settings are remembered across a reload; sounds play, and stop when muted', async () => {
    const cat = await stack.api.createPlayer('sound-cat');
    const dan = await stack.api.createPlayer('sound-dan');
    const game = await stack.api.createGame({ sente: cat.id, gote: dan.id });
    const page = await chromium.contextAs(null, desktop.width);
    await countTones(page);
    await page.setViewportSize(desktop);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board .piece').first().waitFor();

    // a move arrives: its click is heard
    expect(await page.locator('.sound-toggle').getAttribute('aria-pressed')).toBe('true');
    await moveOverApi(game.id, cat.token, '7g7f', 0);
    await waitForMoves(page, 1);
    await expect.poll(() => tones(page)).toBeGreaterThan(0);

    // the walnut board and the international pieces, chosen in the settings
    await page.click('.open-settings');
    await page.selectOption('#setting-boardTheme', 'walnut');
    await page.selectOption('#setting-pieceTheme', 'ivory');
    await page.check('#setting-pieceSet-latin');
    expect(await page.locator('.board .koma-ink.latin').count()).toBe(40);
    await page.screenshot({ path: join(ARTIFACTS, 'board-settings.png') });
    await page.setViewportSize(phone);
    await page.screenshot({ path: join(ARTIFACTS, 'board-settings-phone.png') });
    await page.setViewportSize(desktop);
    await page.click('dialog.settings button[value="close"]');

    // muted
    await page.click('.sound-toggle');
    expect(await page.locator('.sound-toggle').getAttribute('aria-pressed')).toBe('false');

    // after a reload: the same theme, pieces and silence
    await page.reload();
    await page.locator('.board .piece').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.boardTheme)).toBe('walnut');
    expect(await page.evaluate(() => document.documentElement.dataset.pieceTheme)).toBe('ivory');
    expect(await page.locator('.board .koma-ink.latin').count()).toBe(40);
    expect(await page.locator('.sound-toggle').getAttribute('aria-pressed')).toBe('false');
    await page.click('.open-settings');
    expect(await page.locator('#setting-boardTheme').inputValue()).toBe('walnut');
    expect(await page.locator('#setting-pieceSet-latin').isChecked()).toBe(true);
    await page.click('dialog.settings button[value="close"]');
    await moveOverApi(game.id, dan.token, '3c3d', 1);
    await waitForMoves(page, 2);
    await page.waitForTimeout(300);
    expect(await tones(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'board-walnut-international.png'), fullPage: true });
  });
});

describe('around a game', () => {
  test('the record downloads, the SFEN, and the analysis board with the engine analysis', async () => {
    const eve = await stack.api.createPlayer('analysis-eve');
    const fay = await stack.api.createPlayer('analysis-fay');
    // gote has a rook against a pawn, and gives it away: a blunder the engine marks
    const start = '4k4/9/9/9/1r7/2P6/9/9/4K4 b - 1';
    const game = await stack.api.createGame({ sente: eve.id, gote: fay.id, sfen: start });
    await moveOverApi(game.id, eve.token, '5i5h', 0);
    await moveOverApi(game.id, fay.token, '8e7e', 1);
    await moveOverApi(game.id, eve.token, '7f7e', 2);
    await expect.poll(async () => (await stack.api.game(game.id)).ply, { timeout: 10_000 }).toBe(3);
    expect((await stack.api.resign(game.id, fay.token)).status).toBe(202);
    await expect.poll(async () => (await stack.api.game(game.id)).status, { timeout: 10_000 }).toBe('ended');

    const page = await chromium.contextAs(eve, desktop.width);
    await page.setViewportSize(desktop);
    await page.goto(url(`/games/${game.id}`));
    await waitForMoves(page, 3);

    // the downloads answer with the record; the SFEN is the position shown
    const links = page.locator('.downloads a');
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('data-format')))).toEqual([
      'kif',
      'kifu',
      'ki2',
      'csa',
      'sfen',
    ]);
    for (const format of ['kif', 'ki2', 'csa', 'sfen']) {
      const href = await page.locator(`.downloads a[data-format="${format}"]`).getAttribute('href');
      const answer = await fetch(url(href ?? ''));
      expect(answer.status, format).toBe(200);
      expect((await answer.arrayBuffer()).byteLength, format).toBeGreaterThan(10);
    }
    const sfen = await (await fetch(url(`/api/games/${game.id}.sfen`))).text();
    expect(sfen.trim()).toBe(`sfen ${start} moves 5i5h 8e7e 7f7e`);
    expect(await page.locator('#sfen-field').inputValue()).toBe('4k4/9/9/9/2P6/9/9/4K4/9 w R 4');
    await page.keyboard.press('Home');
    expect(await page.locator('#sfen-field').inputValue()).toBe(start);

    // the analysis board: the game's moves, no analysis yet, and a button to ask for it
    await page.click('.analysis-link');
    await page.waitForURL(`**/analysis/${game.id}`);
    await page.locator('.tree-moves .move').first().waitFor();
    expect(await page.locator('.tree-moves .move').count()).toBe(3);
    const ask = page.locator('.request-analysis');
    await ask.waitFor();
    await ask.click();
    // the engine's answer: a score, the graph, the blunder marked on 8e7e
    await page.locator('.eval-graph').waitFor({ timeout: 30_000 });
    await page.locator('table.judgments').waitFor({ timeout: 30_000 });
    const analysis = (await (await fetch(url(`/api/games/${game.id}/analysis`))).json()) as {
      plies: { ply: number; judgment: string | null; best: string | null }[];
    };
    expect(analysis.plies[2]?.judgment).toBe('blunder');
    expect(await page.locator('.tree-moves .move[data-ply="2"] .judgment').textContent()).toBe('??');
    expect(await page.locator('.tree-moves .judgment').count()).toBe(analysis.plies.filter((p) => p.judgment).length);
    // at the start: the best move as text and as an arrow
    await page.keyboard.press('Home');
    expect(await page.locator('.engine .best').textContent()).toContain(analysis.plies[0]?.best ?? '?');
    expect(await page.locator('.board-marks .arrow').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'analysis-board.png'), fullPage: true });

    // free moves: a branch from move 1 (either side moves, by the rules), then back to the game line
    await page.click('.tree-moves .move[data-ply="1"]');
    await page.click('.board [data-sq="8e"]'); // gote's rook, another way
    await page.click('.board [data-sq="8c"]');
    await page.click('.board [data-sq="5h"]');
    await page.click('.board [data-sq="4h"]');
    expect(await page.locator('.tree-moves .move.branch').count()).toBe(2);
    expect(await page.locator('.tree-moves .variation').count()).toBe(1);
    expect(await label(page, '4h')).toBe('4h, sente king');
    expect(await label(page, '8c')).toBe('8c, gote rook');
    expect(await page.locator('.engine .eval').textContent()).toMatch(/Off the game line/);
    // an illegal square does nothing: the king may not step two
    await page.click('.board [data-sq="4h"]');
    await page.click('.board [data-sq="4f"]');
    expect(await page.locator('.tree-moves .move.branch').count()).toBe(2);
    await page.click('.back-to-game');
    expect(await page.locator('.tree-moves .move.current').getAttribute('data-ply')).toBe('1');
    expect(await page.locator('.back-to-game').isVisible()).toBe(false);
    expect(await label(page, '7e')).toBe('7e, empty');
    await page.keyboard.press('End');
    expect(await page.locator('.tree-moves .move.current').getAttribute('data-ply')).toBe('3');
    expect(await label(page, '7e')).toBe('7e, sente pawn');
    await page.setViewportSize(phone);
    await page.screenshot({ path: join(ARTIFACTS, 'analysis-board-phone.png'), fullPage: true });
    for (const name of ['analysis-board.png', 'analysis-board-phone.png'])
      expect(statSync(join(ARTIFACTS, name)).size, name).toBeGreaterThan(10_000);
  });
});
