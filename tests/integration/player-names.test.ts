/**
 * Names people choose are stored as everyone will see them: NFKC-normalized and trimmed, with
 * no invisible, format or control character, never blank; and a guest cannot take an
 * account's username (case-insensitively, after NFKC). Accounts win: one may register a
 * username a guest already shows, and that guest keeps its name.
 */
import { BotRegistry } from '@shogi/gateway';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBotOpponent } from '../../apps/server/src/demo/opponent.js';
import { bearer, call, type Stack, silentLogger, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false, listen: true });
});
afterAll(async () => {
  await stack?.close();
});

const guest = (name: unknown) => call(stack.app, 'POST', '/api/players', { name });

describe('guest names', () => {
  test.each([
    ['a zero-width space', 'alice\u200b', 'U+200B'],
    ['a zero-width joiner', 'al\u200dice', 'U+200D'],
    ['a right-to-left mark', '\u200falice', 'U+200F'],
    ['a right-to-left override', 'bob\u202egnp.exe', 'U+202E'],
    ['a left-to-right isolate', '\u2066bob\u2069', 'U+2066'],
    ['a byte-order mark', '\ufeffbob', 'U+FEFF'],
    ['a Hangul filler', '\u3164', 'U+3164'],
    ['a C1 control', 'bob\u0085', 'U+0085'],
  ])('%s is refused: 400 INVALID_NAME naming the character', async (_what, name, code) => {
    const res = await guest(name);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_NAME');
    expect(res.body.detail).toContain(code);
  });

  test.each([[' '], ['     '], ['\u3000\u3000'], ['\u2800']])('a blank name %j is refused', async (name) => {
    const res = await guest(name);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_NAME');
  });

  test('a name is stored normalized and trimmed, and shown so in games', async () => {
    const a = await guest('  ＭＡＲＩ\u3000 chan  ');
    expect(a.status).toBe(201);
    expect(a.body.name).toBe('MARI chan');
    const b = await guest('ﬁsh');
    const game = await call(
      stack.app,
      'POST',
      '/api/games',
      { sente: a.body.id, gote: b.body.id },
      { authorization: `Bearer ${stack.adminToken}` },
    );
    expect(game.body.players).toMatchObject({ sente: { name: 'MARI chan' }, gote: { name: 'fish' } });
    const me = await call(stack.app, 'GET', '/api/me', undefined, bearer(a.body.token));
    expect(me.body.name).toBe('MARI chan');
  });

  test("a guest may not take an account's username in any case or width: 409 NAME_TAKEN", async () => {
    const account = await call(stack.app, 'POST', '/api/accounts', { username: 'Kasparov', password: 'long-password' });
    expect(account.status).toBe(201);
    for (const name of ['Kasparov', 'kasparov', 'KASPAROV', 'ｋａｓｐａｒｏｖ', ' Kasparov ', '\u212aasparov']) {
      const res = await guest(name);
      expect(res.status, name).toBe(409);
      expect(res.body.code).toBe('NAME_TAKEN');
    }
    // a name that merely contains it, or another script's look-alike, is another name
    expect((await guest('Kasparov fan')).status).toBe(201);
    expect((await guest('K\u0430sparov')).status).toBe(201);
  });

  test('accounts win: a username a guest already shows can be registered, and the guest keeps its name', async () => {
    const early = await guest('Tal');
    expect(early.status).toBe(201);
    const account = await call(stack.app, 'POST', '/api/accounts', { username: 'tal', password: 'long-password' });
    expect(account.status).toBe(201);
    const me = await call(stack.app, 'GET', '/api/me', undefined, bearer(early.body.token));
    expect(me.body).toMatchObject({ name: 'Tal', username: null });
    // a new copy is refused from now on
    expect((await guest('TAL')).body.code).toBe('NAME_TAKEN');
  });

  test('names stored before the rule are left as they are', async () => {
    const old = await guest('legacy');
    await sql`update players set name = ${'leg\u200bacy'} where id = ${old.body.id}`.execute(stack.db);
    const me = await call(stack.app, 'GET', '/api/me', undefined, bearer(old.body.token));
    expect(me.body.name).toBe('leg\u200bacy');
  });
});

describe("the launcher's bots", () => {
  test("a bot whose name an account took plays as '<name> (bot)', which no username can be", async () => {
    await call(stack.app, 'POST', '/api/accounts', { username: 'Demo-Bot', password: 'long-password' });
    const registry = new BotRegistry();
    const bot = await startBotOpponent({ baseUrl: stack.baseUrl, registry, logger: silentLogger() });
    expect(bot.name).toBe('demo-bot (bot)');
    expect(registry.list()).toEqual([{ id: bot.id, name: 'demo-bot (bot)' }]);
  });
});

describe('personal token names', () => {
  test('follow the same rule (no account check: only their owner sees them)', async () => {
    await call(stack.app, 'POST', '/api/accounts', { username: 'token_owner', password: 'long-password' });
    const session = await call(stack.app, 'POST', '/api/session', {
      username: 'token_owner',
      password: 'long-password',
    });
    const make = (name: string) =>
      call(stack.app, 'POST', '/api/tokens', { name, scopes: ['read'] }, bearer(session.body.token));
    const bad = await make('my bot\u202e');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_NAME');
    expect((await make('   ')).body.code).toBe('INVALID_NAME');
    const good = await make(' ｂｏｔ  one ');
    expect(good.status).toBe(201);
    expect(good.body.name).toBe('bot one');
    expect((await make('Kasparov')).status).toBe(201);
  });
});
