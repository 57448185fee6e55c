/**
 * The open-seek list against one client that creates many guests: a limit of open seeks per
 * client address (LOBBY_MAX_OPEN_SEEKS_PER_IP, its default here), held for requests sent at
 * once, and a list that shows every player's oldest seek before anyone's second.
 */
import { randomBytes } from 'node:crypto';
import type { SeekView } from '@shogi/protocol';
import { listOpenSeeks, lobbyDb } from '@shogi/store';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

interface Guest {
  id: string;
  name: string;
  token: string;
}
const guest = async (): Promise<Guest> =>
  (await call(stack.app, 'POST', '/api/players', { name: `g-${randomBytes(4).toString('hex')}` })).body;
const request = async (method: 'POST' | 'DELETE', url: string, p: Guest, from: string, body?: unknown) => {
  const res = await stack.app.inject({
    method,
    url,
    remoteAddress: from,
    headers: body === undefined ? bearer(p.token) : { ...bearer(p.token), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
};
/** Seeks asking for sente in one pool never pair with each other: they stay open. */
const waiting = (mainSeconds: number) => ({
  timeControl: { kind: 'fischer', mainSeconds, incrementSeconds: 1 },
  rated: false,
  color: 'sente',
});
const seek = (p: Guest, from: string, body: object = waiting(600)) => request('POST', '/api/seeks', p, from, body);
const listed = async (): Promise<SeekView[]> => (await call(stack.app, 'GET', '/api/seeks')).body.seeks;
const cancelAll = async (seeks: { id: string; p: Guest }[]) => {
  for (const { id, p } of seeks) await request('DELETE', `/api/seeks/${id}`, p, '192.0.2.1');
};

test("the list shows every player's oldest seek before anyone's second, so many seeks of one player push nobody out", async () => {
  const [many, one, other] = await Promise.all([guest(), guest(), guest()]);
  const mine: string[] = [];
  for (let i = 0; i < 5; i++) mine.push((await seek(many, '192.0.2.10')).body.id);
  const a = (await seek(one, '192.0.2.11')).body.id as string;
  const b = (await seek(other, '192.0.2.12')).body.id as string;
  // a list of three has room for the three players
  const three = await listOpenSeeks(lobbyDb(stack.db), new Date(), 3);
  expect(three.map((s) => s.id).sort()).toEqual([mine[0], a, b].sort());
  expect((await listed()).map((s) => s.id)).toEqual([mine[0], a, b, ...mine.slice(1)]);
  await cancelAll([...mine.map((id) => ({ id, p: many })), { id: a, p: one }, { id: b, p: other }]);
});

test('41 guests from one address, 5 seeks each, sent at once: 20 open, the rest refused, and the list keeps room for others', async () => {
  const flooder = '203.0.113.9';
  const guests = await Promise.all(Array.from({ length: 41 }, guest));
  const answers = [];
  for (let round = 0; round < 5; round++) answers.push(...(await Promise.all(guests.map((g) => seek(g, flooder)))));
  const accepted = answers.filter((a) => a.status === 201);
  // the default of LOBBY_MAX_OPEN_SEEKS_PER_IP
  expect(accepted).toHaveLength(20);
  expect(stack.config.lobbyMaxOpenSeeksPerIp).toBe(20);
  for (const a of answers.filter((x) => x.status !== 201))
    expect([a.status, a.body.code]).toEqual([409, 'TOO_MANY_SEEKS_FROM_ADDRESS']);
  // the same client written as IPv6 is the same address
  expect((await seek(guests[0] as Guest, `::ffff:${flooder}`)).body.code).toBe('TOO_MANY_SEEKS_FROM_ADDRESS');
  // someone else's seek is open and listed
  const someone = await guest();
  const theirs = await seek(someone, '198.51.100.20');
  expect(theirs.status).toBe(201);
  expect((await listed()).map((s) => s.id)).toContain(theirs.body.id);

  // a seek that closes frees its place: cancelled, or paired (a paired seek is never counted)
  const first = accepted[0]?.body as SeekView;
  const owner = guests.find((g) => g.id === first.player.id) as Guest;
  expect((await request('DELETE', `/api/seeks/${first.id}`, owner, flooder)).status).toBe(200);
  const again = await seek(owner, flooder, waiting(601));
  expect(again.status).toBe(201);
  expect((await seek(owner, flooder, waiting(602))).body.code).toBe('TOO_MANY_SEEKS_FROM_ADDRESS');
  const taker = await guest();
  const paired = await seek(taker, '198.51.100.21', { ...waiting(601), color: 'gote' });
  expect(paired.body.status).toBe('paired');
  // (not by the owner, now in a real-time game)
  const another = guests.find((g) => g.id !== owner.id) as Guest;
  expect((await seek(another, flooder, waiting(603))).status).toBe(201);

  // the address is kept with open seeks only
  const { rows } = await sql<{ status: string; address_key: string | null }>`
    select status, address_key from seeks where id in (${first.id}, ${again.body.id}, ${theirs.body.id})`.execute(
    stack.db,
  );
  expect(rows.map((r) => [r.status, r.address_key]).sort()).toEqual([
    ['cancelled', null],
    ['open', '198.51.100.20'],
    ['paired', null],
  ]);
});

test('IPv6 clients count by their /64', async () => {
  const guests = await Promise.all(Array.from({ length: 5 }, guest));
  const answers = await Promise.all(
    guests.flatMap((g, i) => Array.from({ length: 5 }, (_, k) => seek(g, `2001:db8:77:1:${i}:${k}::1`, waiting(700)))),
  );
  expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
  // another /64 is another address
  expect((await seek(await guest(), '2001:db8:77:2::1', waiting(700))).status).toBe(201);
});
