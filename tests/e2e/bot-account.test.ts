/**
 * A bot account over lishogi's Bot API against a person in the web client, in headless
 * Chromium on the real stack. The bot is a small scripted client, as Lishogi-Bot is one: it
 * reads its event stream, accepts the challenge it is sent, opens the game's Bot API stream
 * and answers each gameState on its turn with a legal move (packages/rules). The person
 * challenges it by name from the lobby's form, sees the BOT badge beside its name, plays a
 * few moves by typed USI, sees the bot's replies, and resigns.
 */
import { mkdirSync } from 'node:fs';
import { formatUsi, legalMoves, moveTo, parseUsi, startPosition } from '@shogi/rules';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from '../integration/harness.js';
import { openStream, post } from '../integration/lishogi-client.js';
import { accountWithToken, LineLog, type TestAccount } from '../integration/lishogi-event-stream.js';
import { ARTIFACTS, bounded, buildWebClient, type Chromium, openChromium, removeWebClient } from './browser.js';

let stack: Stack;
let chromium: Chromium;
let webRoot: string;
let bot: TestAccount;

beforeAll(async () => {
  webRoot = await buildWebClient();
  stack = await startStack({ listen: true, extras: { web: { root: webRoot } } });
  bot = await accountWithToken(stack.app, 'RoboKoma', ['bot:play']);
  expect(await post(stack, '/api/bot/account/upgrade', bot.token)).toEqual({ status: 200, body: { ok: true } });
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

/** The bot's move after `moves`: a legal one, quiet first, so the person's scripted moves stay legal. */
function botMove(moves: readonly string[]): string {
  const pos = startPosition();
  for (const usi of moves) pos.makeMove(parseUsi(usi));
  const legal = legalMoves(pos);
  const quiet = legal.find((m) => pos.board[moveTo(m)] === 0);
  const chosen = quiet ?? legal[0];
  if (chosen === undefined) throw new Error(`no legal move after ${moves.join(' ')}`);
  return formatUsi(chosen);
}

/**
 * Plays one game as the bot: accepts the first challenge, then answers each state on its
 * turn until the game ends. Resolves with the game's last state line.
 */
async function playOneGameAsBot(): Promise<{ gameId: string; last: Record<string, unknown> }> {
  const events = (await LineLog.open(`${stack.baseUrl}/api/stream/event`, bot.token)).reader;
  try {
    const challenge = await events.waitFor((l) => l.type === 'challenge', 60_000);
    expect(await post(stack, `/api/challenge/${challenge.challenge.id}/accept`, bot.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    const start = await events.waitFor((l) => l.type === 'gameStart');
    const gameId = start.game.id as string;
    const stream = await openStream(stack, gameId, bot.token, 'bot');
    const full = await stream.next();
    if (full?.type !== 'gameFull') throw new Error(`the bot's stream opened with ${JSON.stringify(full)}`);
    const mine = (full.sente as { id: string }).id === bot.username.toLowerCase() ? 0 : 1;
    let state = full.state as Record<string, unknown>;
    while (state.status === 'started') {
      const moves = String(state.moves)
        .split(' ')
        .filter((m) => m !== '');
      if (moves.length % 2 === mine) {
        const usi = botMove(moves);
        expect(await post(stack, `/api/bot/game/${gameId}/move/${usi}`, bot.token)).toEqual({
          status: 200,
          body: { ok: true },
        });
      }
      const next = await stream.nextOf('gameState', 60_000);
      if (next === null) break;
      state = next;
    }
    stream.close();
    return { gameId, last: state };
  } finally {
    events.close();
  }
}

test('a person challenges a bot account from the lobby, sees its BOT badge and its replies, and resigns', async () => {
  const botGame = playOneGameAsBot();
  const person = await stack.api.createPlayer('e2e-hanako');
  const page = await chromium.contextAs(person);
  await page.goto(`${stack.baseUrl}/`);
  await page.click('#play-friend');
  await page.fill('#create-friend', 'RoboKoma');
  await page.selectOption('#create-color', 'sente');
  await page.click('#create-submit');
  // the sent challenge names the bot with its badge, unless the bot accepted before it showed
  const waiting = await Promise.race([
    page
      .locator('.waiting .bot-title')
      .waitFor({ timeout: 10_000 })
      .then(() =>
        page
          .locator('.waiting')
          .textContent({ timeout: 1_000 })
          .catch(() => null),
      ),
    page.waitForURL('**/games/*', { timeout: 10_000 }).then(() => null),
  ]);
  if (waiting !== null) expect(waiting).toMatch(/^Challenge sent to BOT RoboKoma/);

  // the bot accepts from its event stream: the person's lobby opens the game
  await page.waitForURL('**/games/*', { timeout: 20_000 });
  await page.locator('.player-bar .name').first().waitFor();
  // she plays sente, at the bottom; the bot's name at the top carries the badge, hers none
  expect(await page.locator('.player-bar.top .name').textContent()).toBe('BOT RoboKoma');
  expect(await page.locator('.player-bar.top .name .bot-title').textContent()).toBe('BOT');
  expect(await page.locator('.player-bar.bottom .name').textContent()).toBe('e2e-hanako');
  expect(await page.locator('.player-bar .bot-title').count()).toBe(1);

  const shown = () => page.locator('.moves li .usi').allTextContents();
  for (const [i, usi] of ['7g7f', '2g2f', '6i7h'].entries()) {
    await page.fill('#usi-input', usi);
    await page.press('#usi-input', 'Enter');
    // her move, then the bot's reply, both in the move list
    await page.waitForFunction((n) => document.querySelectorAll('.moves li').length >= n, 2 * (i + 1), {
      timeout: 20_000,
    });
    expect((await shown())[2 * i]).toBe(usi);
  }
  const moves = await shown();
  expect(moves).toHaveLength(6);
  // the replies are the bot's scripted choices
  expect(moves[1]).toBe(botMove(moves.slice(0, 1)));
  expect(moves[5]).toBe(botMove(moves.slice(0, 5)));

  // a watcher on the lobby sees the game among the live ones, the bot's badge on its card
  const watcher = await chromium.contextAs(null);
  await watcher.goto(`${stack.baseUrl}/`);
  const card = watcher.locator('.live-card', { hasText: 'RoboKoma' });
  await card.waitFor({ timeout: 20_000 });
  expect(await card.locator('.bot-title').count()).toBe(1);

  await page.click('button:has-text("Resign")');
  // the page's own question, not the browser's confirm()
  await page.click('dialog.confirm-action button.yes');
  await page.locator('.banner.result').waitFor();
  expect(await page.locator('.banner.result').textContent()).toMatch(/Gote \(RoboKoma\) wins by resignation/);
  await page.screenshot({ path: `${ARTIFACTS}/bot-account-game.png` });

  // the bot's stream ended with the resignation, won by the bot
  const { last } = await botGame;
  expect(last).toMatchObject({ status: 'resign', winner: 'gote' });
});
