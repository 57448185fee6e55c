/**
 * Takebacks in headless Chromium, two players in two browser contexts against a real gateway
 * and worker: one proposes from the game page, the other sees the proposal and accepts (the
 * move leaves both move lists and the boards) or declines it; the proposer may withdraw.
 * Screenshots of both pages at 1366×900 and 390×844 go to test-artifacts/.
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
const movesShown = (page: Page) => page.locator('.moves li .usi').allTextContents();
const VIEWPORTS = [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** Plays `usi` over HTTP once the game is at `ply`. */
async function moveOverApi(gameId: string, token: string, usi: string, ply: number): Promise<void> {
  await expect.poll(async () => (await stack.api.game(gameId)).ply, { timeout: 10_000 }).toBe(ply);
  const answer = await stack.api.submitMove(gameId, token, { usi, ply });
  expect(answer.status, usi).toBe(202);
}

async function twoPlayers(name: string, viewport: { width: number; height: number }) {
  const ann = await stack.api.createPlayer(`${name}-ann`);
  const ben = await stack.api.createPlayer(`${name}-ben`);
  const game = await stack.api.createGame({ sente: ann.id, gote: ben.id });
  const open = async (who: typeof ann) => {
    const page = await chromium.contextAs(who, viewport.width, viewport.width < 600);
    await page.setViewportSize(viewport);
    await page.goto(url(`/games/${game.id}`));
    await page.locator('.board .piece').first().waitFor();
    return page;
  };
  const [annPage, benPage] = [await open(ann), await open(ben)];
  await moveOverApi(game.id, ann.token, '7g7f', 0);
  await moveOverApi(game.id, ben.token, '3c3d', 1);
  await moveOverApi(game.id, ann.token, '2g2f', 2);
  for (const page of [annPage, benPage])
    await expect.poll(() => movesShown(page), { timeout: 10_000 }).toEqual(['7g7f', '3c3d', '2g2f']);
  return { ann, ben, game, annPage, benPage };
}

const takebackButton = (page: Page) => page.getByRole('button', { name: 'Takeback', exact: true });
const offerLine = (page: Page) => page.locator('.takeback-offer');

describe.each(VIEWPORTS)('takebacks at %s size', (name, viewport) => {
  test('one player proposes, the other accepts: the move leaves both pages', async () => {
    const { game, annPage, benPage } = await twoPlayers(`tb-${name}`, viewport);
    await takebackButton(annPage).click();
    await expect.poll(() => offerLine(benPage).textContent()).toContain('Your opponent asks to take back a move.');
    await expect.poll(() => offerLine(annPage).textContent()).toContain('You asked to take back a move.');
    expect(await annPage.getByRole('button', { name: 'Withdraw' }).isVisible()).toBe(true);
    expect(await takebackButton(annPage).isVisible()).toBe(false);
    await benPage.getByRole('button', { name: 'Accept', exact: true }).scrollIntoViewIfNeeded();
    await annPage.screenshot({ path: join(ARTIFACTS, `takeback-proposed-${name}.png`) });
    await benPage.screenshot({ path: join(ARTIFACTS, `takeback-asked-${name}.png`) });
    await benPage.getByRole('button', { name: 'Accept', exact: true }).click();
    for (const page of [annPage, benPage]) {
      await expect.poll(() => movesShown(page), { timeout: 10_000 }).toEqual(['7g7f', '3c3d']);
      expect(await offerLine(page).isVisible()).toBe(false);
    }
    // the 2g pawn is back on its square, and ann plays another move on the board
    expect(await annPage.locator('.board [data-sq="2g"]').getAttribute('aria-label')).toBe('2g, sente pawn');
    await annPage.click('.board [data-sq="6g"]');
    await annPage.click('.board [data-sq="6f"]');
    await expect.poll(() => movesShown(benPage), { timeout: 10_000 }).toEqual(['7g7f', '3c3d', '6g6f']);
    await annPage.screenshot({ path: join(ARTIFACTS, `takeback-accepted-${name}.png`) });
    expect((await stack.api.game(game.id)).moves).toEqual(['7g7f', '3c3d', '6g6f']);
  });

  test('a declined proposal leaves the moves; a withdrawn one too', async () => {
    const { game, annPage, benPage } = await twoPlayers(`tbno-${name}`, viewport);
    await takebackButton(benPage).click();
    await offerLine(annPage).getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => offerLine(benPage).isVisible()).toBe(false);
    await takebackButton(benPage).click();
    await offerLine(benPage).getByRole('button', { name: 'Withdraw' }).click();
    await expect.poll(() => offerLine(annPage).isVisible()).toBe(false);
    for (const page of [annPage, benPage]) expect(await movesShown(page)).toEqual(['7g7f', '3c3d', '2g2f']);
    expect((await stack.api.game(game.id)).takeback).toBeNull();
  });
});

describe('the takeback preference on the settings page', () => {
  const post = (path: string, body: unknown) =>
    fetch(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test('an account chooses when its games allow takebacks; the server keeps it; a guest is asked to sign in', async () => {
    expect((await post('/api/accounts', { username: 'tb-pref', password: 'correct horse' })).status).toBe(201);
    const session = (await (await post('/api/session', { username: 'tb-pref', password: 'correct horse' })).json()) as {
      token: string;
      player: { id: string; name: string };
    };
    const page = await chromium.contextAs({ ...session.player, token: session.token, account: true });
    await page.goto(url('/settings'));
    const always = page.getByRole('radio', { name: 'Always' });
    await expect.poll(() => always.isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'In casual games only' }).check();
    await expect.poll(() => page.locator('.saved').textContent()).toBe('Saved: takebacks set.');
    const read = async () =>
      (
        (await (
          await fetch(url('/api/me/preferences'), { headers: { authorization: `Bearer ${session.token}` } })
        ).json()) as { takeback: string }
      ).takeback;
    expect(await read()).toBe('casual');
    await page.reload();
    await expect.poll(() => page.getByRole('radio', { name: 'In casual games only' }).isChecked()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'settings-takeback.png'), fullPage: true });

    const guest = await chromium.contextAs(await stack.api.createPlayer('tb-guest'));
    await guest.goto(url('/settings'));
    await guest.locator('[data-setting="takeback"]', { hasText: 'Sign up or log in' }).waitFor();
    expect(await guest.getByRole('radio', { name: 'Never' }).count()).toBe(0);
  });
});
