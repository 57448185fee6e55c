/** Which part of the append statement costs: variants of raw SQL at 16 clients for 4 s each. */

import { gameCreated } from '@shogi/game/testing';
import { appendEvents } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';
import pg from 'pg';

const t = await createTestDatabase({ max: 2 });
const pool = new pg.Pool({ connectionString: t.url, max: 16 });
pool.on('error', () => undefined);
const games = Array.from({ length: 64 }, (_, i) => `m${i}`);
for (const g of games) await appendEvents(t.db, g, 0, [gameCreated(g)]);
const payload = JSON.stringify({
  playerId: 'p',
  color: 'sente',
  usi: '7g7f',
  ply: 0,
  receivedAt: new Date().toISOString(),
});
const seqs = new Map(games.map((g) => [g, 1]));
const variants: Record<string, (g: string, seq: number) => [string, unknown[]]> = {
  plain: (g, s) => [
    `insert into game_events (game_id, seq, type, payload) values ($1, $2, 'MoveSubmitted', $3::jsonb)`,
    [g, s + 1, payload],
  ],
  lock: (g, s) => [
    `with l as materialized (select pg_advisory_xact_lock_shared(42)) insert into game_events (game_id, seq, type, payload) select $1, $2, 'MoveSubmitted', $3::jsonb from l`,
    [g, s + 1, payload],
  ],
  guard: (g, s) => [
    `insert into game_events (game_id, seq, type, payload) select $1, $2, 'MoveSubmitted', $3::jsonb where exists (select 1 from game_events where game_id = $1 and seq = $4)`,
    [g, s + 1, payload, s],
  ],
  update: (g, s) => [
    `with ins as (insert into game_events (game_id, seq, type, payload) values ($1, $2, 'MoveSubmitted', $3::jsonb) returning seq) update games set last_seq = $2, updated_at = now() where id = $1 and exists (select 1 from ins)`,
    [g, s + 1, payload],
  ],
};
for (const [name, make] of [...Object.entries(variants), ...Object.entries(variants).reverse()]) {
  let n = 0;
  const end = performance.now() + 4000;
  await Promise.all(
    Array.from({ length: 16 }, async (_, c) => {
      let i = c;
      while (performance.now() < end) {
        const g = games[i % games.length] as string;
        i += 16;
        const s = seqs.get(g) as number;
        const [text, values] = make(g, s);
        await pool.query(text, values);
        seqs.set(g, s + 1);
        n++;
      }
    }),
  );
  console.log(`${name}: ${(n / 4).toFixed(0)}/s`);
}
await pool.end();
await t.drop();
