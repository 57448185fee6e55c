// Many players joining one arena through the public API (`POST /api/tournament/:id/join`, each a
// command on the one tournament stream), beside the same number of a cheap authenticated GET
// (`GET /api/me`) by the same players at the same concurrency, against one gateway process.
// Each join must be acknowledged once: the stream's PlayerJoined events are counted.

import { createTestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { cpuSeconds, startServer } from '../fanout/servers.js';

interface Guest {
  readonly id: string;
  readonly token: string;
}

/** `count` requests, at most `concurrency` at once; the statuses seen, and the seconds taken. */
async function flood(
  count: number,
  concurrency: number,
  request: (i: number) => Promise<number>,
): Promise<{ seconds: number; statuses: Map<number, number>; doneAt: number[] }> {
  const statuses = new Map<number, number>();
  const doneAt: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const status = await request(i).catch(() => 0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200) doneAt.push((performance.now() - start) / 1000);
      }
    }),
  );
  return { seconds: (performance.now() - start) / 1000, statuses, doneAt };
}

/** The rate over the first and the last tenth of a run's answers: flat when a request's cost does not grow. */
function tenths(doneAt: readonly number[]): string {
  const n = Math.floor(doneAt.length / 10);
  if (n < 2) return '';
  const rate = (from: number, to: number) =>
    Math.round((to - from) / ((doneAt[to - 1] ?? 0) - (doneAt[from] ?? 0) || Number.EPSILON));
  return `first tenth ${rate(0, n)}/s, last tenth ${rate(doneAt.length - n, doneAt.length)}/s`;
}

const show = (s: Map<number, number>): string =>
  [...s.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k === 0 ? 'failed' : k}: ${v}`)
    .join(', ');

export async function benchJoins(players: number, concurrency: number): Promise<void> {
  const t = await createTestDatabase();
  const server = await startServer('gateway', {
    databaseUrl: t.url,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    channelPrefix: `tbench${process.pid}:`,
  });
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const guests: Guest[] = new Array(players);
    const made = await flood(players, 20, async (i) => {
      const r = await fetch(`${base}/api/players`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `j${i}` }),
      });
      if (r.ok) guests[i] = (await r.json()) as Guest;
      return r.status;
    });
    console.log(`  ${players} guests made in ${made.seconds.toFixed(1)} s (${show(made.statuses)})`);
    const auth = (g: Guest | undefined) => ({ authorization: `Bearer ${g?.token}` });
    const created = await fetch(`${base}/api/tournament`, {
      method: 'POST',
      headers: { ...auth(guests[0]), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        name: 'Bench arena',
        clockTime: '3',
        clockIncrement: '2',
        minutes: '60',
        startDate: String(Date.now() + 3_600_000),
        maxPlayers: String(Math.max(players, 2)),
      }).toString(),
    });
    if (!created.ok) throw new Error(`create: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };

    const cpu0 = cpuSeconds(server.pid);
    const gets = await flood(players, concurrency, async (i) => {
      const r = await fetch(`${base}/api/me`, { headers: auth(guests[i]) });
      await r.arrayBuffer();
      return r.status;
    });
    const cpu1 = cpuSeconds(server.pid);
    const joins = await flood(players, concurrency, async (i) => {
      const r = await fetch(`${base}/api/tournament/${id}/join`, {
        method: 'POST',
        headers: { ...auth(guests[i]), 'content-type': 'application/json' },
        body: '{}',
      });
      await r.arrayBuffer();
      return r.status;
    });
    const cpu2 = cpuSeconds(server.pid);
    const { rows } = await sql<{ n: string; distinct: string }>`
      select count(*) as n, count(distinct payload->'player'->>'id') as distinct
      from tournament_events where tournament_id = ${id} and type = 'PlayerJoined'`.execute(t.db);
    const counted = rows[0];
    const rate = (n: number, s: number) => `${Math.round(n / s)}/s`;
    console.log(
      `  GET /api/me (reference):   ${players} in ${gets.seconds.toFixed(1)} s, ${rate(players, gets.seconds)}, ` +
        `gateway CPU ${(cpu1 - cpu0).toFixed(1)} s (${show(gets.statuses)}); ${tenths(gets.doneAt)}`,
    );
    console.log(
      `  POST .../join:             ${players} in ${joins.seconds.toFixed(1)} s, ${rate(players, joins.seconds)}, ` +
        `gateway CPU ${(cpu2 - cpu1).toFixed(1)} s (${show(joins.statuses)}); ` +
        `${(joins.seconds / gets.seconds).toFixed(1)}x the reference; target ${players} within 60 s`,
    );
    console.log(
      `  joins answered within the first 60 s: ${joins.doneAt.filter((s) => s <= 60).length} ` +
        `(GET /api/me: ${gets.doneAt.filter((s) => s <= 60).length}); joins ${tenths(joins.doneAt)}`,
    );
    console.log(
      `  PlayerJoined events: ${counted?.n} for ${counted?.distinct} distinct players (each join acknowledged once: ${
        Number(counted?.n) === (joins.statuses.get(200) ?? 0) && counted?.n === counted?.distinct ? 'yes' : 'NO'
      })`,
    );
  } finally {
    await server.stop();
    await t.drop();
  }
}
