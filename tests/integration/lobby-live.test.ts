/**
 * The live lobby: the open seeks reach every lobby socket on any gateway as they change,
 * who looks at the lobby is known across gateways, and the demo's bot-lobby takes a seek only
 * after its wait and never while another person looks at the lobby.
 */
import { buildApp } from '@shogi/gateway';
import type { LobbyMessage, SeekView } from '@shogi/protocol';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { answerSeeks } from '../../apps/server/src/demo/seek-answerer.js';
import { LobbySocket } from '../../apps/server/src/lobby-socket.js';
import { bearer, call, type Stack, silentLogger, startStack } from './harness.js';

let stack: Stack;
let second: FastifyInstance;
let secondUrl: string;
const stop = new AbortController();
beforeAll(async () => {
  stack = await startStack({ listen: true });
  // a second gateway process in all but name: its own pools, subscribers and sockets
  second = await buildApp(stack.config, silentLogger());
  secondUrl = await second.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  stop.abort();
  await second?.close();
  await stack?.close();
});

type Who = { id: string; token: string };
const guest = async (name: string): Promise<Who> => (await call(stack.app, 'POST', '/api/players', { name })).body;
const CASUAL = { timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 }, rated: false } as const;

async function postSeek(who: Who, body: object = CASUAL): Promise<SeekView> {
  const res = await call(stack.app, 'POST', '/api/seeks', body, bearer(who.token));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A lobby socket and the seek lists it was sent, newest last. */
async function follow(baseUrl: string, who: Who) {
  const socket = await LobbySocket.open(baseUrl, who.token, true);
  const lists: (readonly SeekView[])[] = [];
  socket.onMessage((m: LobbyMessage) => {
    if (m.type === 'seeks') lists.push(m.seeks);
  });
  const ids = () => (lists.at(-1) ?? []).map((s) => s.id);
  // the first list comes right after hello
  await expect.poll(() => lists.length, { timeout: 5_000 }).toBeGreaterThan(0);
  return { socket, lists, ids };
}

const statusOf = async (id: string) => ((await call(stack.app, 'GET', `/api/seeks/${id}`)).body as SeekView).status;

test('the open seeks reach a lobby socket on another gateway as they are posted, cancelled and paired', async () => {
  const [watcher, alice, bob, carol] = await Promise.all(['watcher', 'alice', 'bob', 'carol'].map(guest));
  const live = await follow(secondUrl, watcher as Who);
  const seek = await postSeek(alice as Who);
  await expect.poll(live.ids, { timeout: 1_000, interval: 20 }).toContain(seek.id);
  expect(live.lists.at(-1)?.find((s) => s.id === seek.id)).toMatchObject({ status: 'open', player: { name: 'alice' } });

  const res = await call(stack.app, 'DELETE', `/api/seeks/${seek.id}`, undefined, bearer((alice as Who).token));
  expect(res.status).toBe(200);
  await expect.poll(live.ids, { timeout: 1_000, interval: 20 }).not.toContain(seek.id);

  const open = await postSeek(bob as Who);
  await expect.poll(live.ids, { timeout: 1_000, interval: 20 }).toContain(open.id);
  const taker = await postSeek(carol as Who);
  expect(taker.status).toBe('paired');
  // taken: gone from the list, and the taker's seek never showed as open
  await expect.poll(live.ids, { timeout: 1_000, interval: 20 }).not.toContain(open.id);
  expect(live.ids()).not.toContain(taker.id);
  await live.socket.close();
});

test('who follows the seeks is known as looking on every gateway, and forgotten when the socket closes', async () => {
  const [looker, seeker] = (await Promise.all(['looker', 'seeker'].map(guest))) as Who[];
  const presence = { lookers: stack.lobbyLookers };
  const before = await presence.lookers([]);
  const live = await follow(secondUrl, looker as Who);
  expect(await presence.lookers([(seeker as Who).id])).toBe(before + 1);
  // the looker's own socket is not someone else looking
  expect(await presence.lookers([(looker as Who).id])).toBe(before);
  await live.socket.close();
  await expect.poll(() => presence.lookers([]), { timeout: 2_000 }).toBe(before);

  // a socket that does not follow the seeks (a game page waiting for a rematch answer) is
  // neither sent them nor counted as looking
  const plain = await LobbySocket.open(secondUrl, (looker as Who).token);
  const kinds: string[] = [];
  plain.onMessage((m) => kinds.push(m.type));
  await expect.poll(() => kinds, { timeout: 5_000 }).toContain('hello');
  const posted = await postSeek(seeker as Who);
  await new Promise((r) => setTimeout(r, 500));
  expect(kinds).toEqual(['hello']);
  expect(await presence.lookers([(seeker as Who).id])).toBe(before);
  await plain.close();
  await call(stack.app, 'DELETE', `/api/seeks/${posted.id}`, undefined, bearer((seeker as Who).token));
});

test('the bot waits its time for a person, and never takes a seek while someone else looks at the lobby', async () => {
  const waitMs = 1_500;
  answerSeeks({
    api: stack.api,
    logger: pino({ level: 'silent' }),
    signal: stop.signal,
    random: seeded(11),
    publicUrl: stack.baseUrl,
    waitMs,
    pollMs: 50,
    moveDelayMs: 0,
    lookers: (except) => stack.lobbyLookers(except),
  }).catch(() => undefined);
  const [seeker, other] = (await Promise.all(['seeker-b', 'other-b'].map(guest))) as Who[];
  // the seeker's own lobby socket does not hold the bot back
  const own = await follow(stack.baseUrl, seeker as Who);

  // alone: taken once the wait is over, not before
  const first = await postSeek(seeker as Who);
  await new Promise((r) => setTimeout(r, waitMs - 500));
  expect(await statusOf(first.id)).toBe('open');
  await expect.poll(() => statusOf(first.id), { timeout: 5_000, interval: 50 }).toBe('paired');
  const game = (await call(stack.app, 'GET', `/api/seeks/${first.id}`)).body as SeekView;
  const view = (await call(stack.app, 'GET', `/api/games/${game.gameId}`)).body;
  expect([view.players.sente.name, view.players.gote.name]).toContain('bot-lobby');
  await call(stack.app, 'POST', `/api/games/${game.gameId}/resign`, {}, bearer((seeker as Who).token));

  // another person looks at the lobby (on the other gateway): the seek stays theirs to take
  const looking = await follow(secondUrl, other as Who);
  const second = await postSeek(seeker as Who, { ...CASUAL, timeControl: { kind: 'unlimited' } });
  await new Promise((r) => setTimeout(r, waitMs + 1_500));
  expect(await statusOf(second.id)).toBe('open');
  // they leave: the bot takes it
  await looking.socket.close();
  await expect.poll(() => statusOf(second.id), { timeout: 5_000, interval: 50 }).toBe('paired');
  await own.socket.close();
});
