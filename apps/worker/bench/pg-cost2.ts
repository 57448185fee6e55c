/** PG backend CPU per store operation (16 clients, 3 s each). */
import { readFileSync } from 'node:fs';
import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { appendEvents, poolOf, readStream } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';

const t = await createTestDatabase({ max: 16 });
const pool = poolOf(t.db);
if (!pool) throw new Error('no pool');
const cpu = async () => {
  const { rows } = await pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [t.name]);
  return rows.reduce((a, r) => {
    try {
      const f = readFileSync(`/proc/${r.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return a + (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return a;
    }
  }, 0);
};
const games = Array.from({ length: 256 }, (_, i) => `g${i}`);
for (const g of games) await appendEvents(t.db, g, 0, [gameCreated(g)]);
const seqs = new Map(games.map((g) => [g, 1]));
const q = (name: string, text: string, values: (g: string, s: number) => unknown[]) => async (g: string) => {
  const s = seqs.get(g) as number;
  await pool.query({ name, text, values: values(g, s) });
  seqs.set(g, s + 1);
};
const P = '{"playerId":"p","color":"sente","usi":"7g7f","ply":0}';
const variants: Record<string, (g: string) => Promise<unknown>> = {
  'appendEvents (prepared)': async (g) => {
    const s = seqs.get(g) as number;
    await appendEvents(t.db, g, s, [moveSubmitted('7g7f', 0)]);
    seqs.set(g, s + 1);
  },
  'insert values': q(
    'v1',
    'insert into game_events (game_id, seq, type, payload) values ($1, $2, $3, $4::jsonb)',
    (g, s) => [g, s + 1, 'MoveSubmitted', P],
  ),
  'insert + lock': q(
    'v2',
    `with l as materialized (select pg_advisory_xact_lock_shared(42)) insert into game_events (game_id, seq, type, payload) select $1, $2, $3, $4::jsonb from l`,
    (g, s) => [g, s + 1, 'MoveSubmitted', P],
  ),
  'insert + guard': q(
    'v3',
    `insert into game_events (game_id, seq, type, payload) select $1, $2, $3, $4::jsonb where exists (select 1 from game_events where game_id = $1 and seq = $2 - 1)`,
    (g, s) => [g, s + 1, 'MoveSubmitted', P],
  ),
  'insert + update': q(
    'v4',
    `with ins as (insert into game_events (game_id, seq, type, payload) values ($1, $2, $3, $4::jsonb) returning seq) update games set last_seq = $2, updated_at = now() where id = $1 and exists (select 1 from ins)`,
    (g, s) => [g, s + 1, 'MoveSubmitted', P],
  ),
  'update only': q('v5', `update games set last_seq = $2, updated_at = now() where id = $1`, (g, s) => [g, s + 1]),
};
for (const [name, run] of Object.entries(variants)) {
  let n = 0;
  const c0 = await cpu();
  const end = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: 16 }, async (_, k) => {
      let i = k;
      while (performance.now() < end) {
        await run(games[i % games.length] as string);
        i += 16;
        n++;
      }
    }),
  );
  const used = (await cpu()) - c0;
  console.log(`${name}: ${(n / 3).toFixed(0)}/s, PG CPU ${((used / n) * 1e6).toFixed(0)} µs each`);
}
await t.drop();
