/**
 * Fair play in Chromium (issue 47): a player reports their opponent with the Report fold-out
 * of the game page and again from the opponent's profile; a moderator opens /mod with a `mod`
 * token, finds the account with both reports, marks it with a reason (it leaves the queue),
 * and unmarks it by name. Screenshots of the queue at 1366×900 go to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fairplayDb, readFairplay } from '@shogi/store';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { mintAdminToken, type Stack, startStack } from '../integration/harness.js';
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

interface Account {
  readonly id: string;
  readonly name: string;
  readonly token: string;
  readonly account: true;
}

async function account(username: string): Promise<Account> {
  const post = (path: string, body: unknown) =>
    fetch(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/api/accounts', { username, password: 'correct horse' })).status).toBe(201);
  const session = (await (await post('/api/session', { username, password: 'correct horse' })).json()) as {
    token: string;
    player: { id: string; name: string };
  };
  return { ...session.player, token: session.token, account: true };
}

async function open(who: Account | null, path: string): Promise<Page> {
  const page = await chromium.contextAs(who, DESKTOP.width, false);
  await page.setViewportSize(DESKTOP);
  await page.goto(url(path));
  return page;
}

async function report(page: Page, reason: string, details: string): Promise<void> {
  await page.locator('details.report summary').click();
  await page.locator('details.report select[name=reason]').selectOption(reason);
  await page.locator('details.report textarea').fill(details);
  await page.locator('details.report button[type=submit]').click();
  await expect.poll(() => page.locator('details.report .report-status').textContent()).toMatch(/Thank you/);
}

test('a player reports an opponent from the game and the profile; a moderator marks and unmarks it on /mod', async () => {
  const cheater = await account('quickfingers');
  const victim = await account('honest');
  const game = await stack.api.createGame({
    sente: cheater.id,
    gote: victim.id,
    rated: true,
    timeControl: { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 },
  });

  // 1. on the game page the victim reports the other player (not themself)
  const gamePage = await open(victim, `/games/${game.id}`);
  await expect.poll(() => gamePage.locator('details.report').count(), { timeout: 10_000 }).toBe(1);
  expect(await gamePage.locator('details.report select[name=username]').count()).toBe(0);
  await report(gamePage, 'cheat', 'every move the engine');
  // 2. and again from the profile; a profile of oneself has no Report
  const profile = await open(victim, `/players/${cheater.id}`);
  await expect.poll(() => profile.locator('details.report').count()).toBe(1);
  await report(profile, 'boost', 'plays its friend all day');
  await profile.goto(url(`/players/${victim.id}`));
  await expect.poll(() => profile.locator('h1').textContent()).toContain('honest');
  expect(await profile.locator('details.report').count()).toBe(0);
  const stream = await readFairplay(fairplayDb(stack.db), cheater.id);
  expect(stream.map((e) => [e.event.type, (e.event.data as { reason: string }).reason])).toEqual([
    ['PlayerReported', 'cheat'],
    ['PlayerReported', 'boost'],
  ]);

  // 3. the moderator's queue, with a mod token
  const mod = await open(null, '/mod');
  await expect.poll(() => mod.locator('.mod-queue').textContent()).toMatch(/token with the mod scope/);
  await mod.locator('input[name=token]').fill(await mintAdminToken(stack.db, 'mod'));
  await mod.locator('form.mod-token button').click();
  const entry = mod.locator(`article.mod-entry[data-username="${cheater.name}"]`);
  await expect
    .poll(() => entry.locator('.reports').textContent())
    .toMatch(/^2 reports.*honest: cheat “every move the engine”/);
  await mod.screenshot({ path: join(ARTIFACTS, 'fair-play-queue-desktop.png'), fullPage: true });
  // 4. marked with a reason: out of the queue, an event with who and why
  await entry.locator('input[name=reason]').fill('engine moves, flat times');
  await entry.locator('button.mark').click();
  await expect.poll(() => mod.locator('.mod-status').textContent()).toMatch(`${cheater.name} is marked`);
  await expect.poll(() => entry.count()).toBe(0);
  expect((await readFairplay(fairplayDb(stack.db), cheater.id)).at(-1)?.event).toMatchObject({
    type: 'EngineMarked',
    data: { reason: 'engine moves, flat times' },
  });
  // 5. unmarked by name
  await mod.locator('form.mod-unmark input[name=username]').fill(cheater.name);
  await mod.locator('form.mod-unmark input[name=reason]').fill('appeal accepted');
  await mod.locator('form.mod-unmark button').click();
  await expect.poll(() => mod.locator('.mod-status').textContent()).toMatch(`${cheater.name} is unmarked`);
  expect((await readFairplay(fairplayDb(stack.db), cheater.id)).at(-1)?.event).toMatchObject({
    type: 'EngineUnmarked',
    data: { reason: 'appeal accepted' },
  });
});
