/** PG backend CPU of the append statement with parts removed (16 clients, 3 s each). */
import { readFileSync } from 'node:fs';
import { gameCreated } from '@shogi/game/testing';
import { appendEvents, poolOf } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';

const t = await createTestDatabase({ max: 17 });
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
const LOCK = `horizon_lock as materialized (select pg_advisory_xact_lock_shared(358435746633::bigint) as locked),`;
const NOLOCK = `horizon_lock as materialized (select 1 as locked),`;
const OK = `ok as (select g.game_id from unnest($1::text[], $2::integer[]) as g(game_id, expected)
    where g.expected = 0 or exists (select 1 from game_events e where e.game_id = g.game_id and e.seq = g.expected)),`;
const NOOK = `ok as (select g.game_id from unnest($1::text[], $2::integer[]) as g(game_id, expected)),`;
const INS = `ins as (insert into game_events (game_id, seq, type, payload)
    select v.game_id, v.seq, v.type, v.payload
    from horizon_lock, unnest($1::text[], $3::integer[], $4::text[], $5::jsonb[]) as v(game_id, seq, type, payload)
    where v.game_id in (select game_id from ok)
    returning game_id, seq, recorded_at, global_position)`;
const PROJ = `, proj as (update games set last_seq = p.last_seq, updated_at = now()
    from unnest($1::text[], $3::integer[]) as p(id, last_seq)
    where games.id = p.id and p.id in (select game_id from ok))`;
const full = (lock: string, ok: string, proj: string) =>
  `with ${lock} ${ok} ${INS} ${proj} select game_id, seq from ins`;
const games = Array.from({ length: 256 }, (_, i) => `g${i}`);
for (const g of games) await appendEvents(t.db, g, 0, [gameCreated(g)]);
const seqs = new Map(games.map((g) => [g, 1]));
const variants: Record<string, string> = {
  'none of them (warm-up)': full(NOLOCK, NOOK, ''),
  full: full(LOCK, OK, PROJ),
  'lock only': full(LOCK, NOOK, ''),
  'no lock': full(NOLOCK, OK, PROJ),
  'no guard': full(LOCK, NOOK, PROJ),
  'no projection': full(LOCK, OK, ''),
  'none of them': full(NOLOCK, NOOK, ''),
  'full again': full(LOCK, OK, PROJ),
};
for (const [name, text] of Object.entries(variants)) {
  let n = 0;
  const c0 = await cpu();
  const end = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: 16 }, async (_, k) => {
      let i = k;
      while (performance.now() < end) {
        const g = games[i % games.length] as string;
        i += 16;
        const s = seqs.get(g) as number;
        await pool.query({
          name: `v${name}`,
          text,
          values: [[g], [s], [s + 1], ['MoveSubmitted'], ['{"usi":"7g7f"}']],
        });
        seqs.set(g, s + 1);
        n++;
      }
    }),
  );
  const used = (await cpu()) - c0;
  console.log(`${name}: ${(n / 3).toFixed(0)}/s, PG CPU ${((used / n) * 1e6).toFixed(0)} µs each`);
}
await t.drop();
