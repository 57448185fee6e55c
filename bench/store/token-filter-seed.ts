/**
 * How long a gateway's start waits for its filter of the valid tokens (apps/gateway/src/domain/
 * valid-tokens.ts): a fresh database with TOKENS valid tokens (half guest tokens on `players`,
 * half personal tokens on `tokens`, plus a tenth as many revoked ones the scan skips), read into
 * the filter as the gateway reads it, in batches from a cursor. The reference, in the
 * same run: the same hashes read by one query into one array, without a filter.
 *
 *   npx tsx --conditions=@shogi/source bench/store/token-filter-seed.ts [TOKENS]
 */
import { createTestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { ValidTokens } from '../../apps/gateway/src/domain/valid-tokens.js';
import { validTokenSourceOver } from '../../apps/gateway/src/plugins/auth-store.js';

const TOKENS = Number(process.argv[2] ?? 1_000_000);
if (!Number.isInteger(TOKENS) || TOKENS <= 1) throw new Error('TOKENS must be an integer above 1');
const t = await createTestDatabase();
try {
  const guests = Math.floor(TOKENS / 2);
  const personal = TOKENS - guests;
  await sql`insert into players (id, name, token_hash)
    select 'p' || i, 'p' || i, encode(sha256(('guest' || i)::bytea), 'hex')
    from generate_series(1, ${guests}::int) i`.execute(t.db);
  await sql`insert into tokens (id, player_id, kind, name, token_hash, scopes, revoked_at)
    select 't' || i, 'p' || (i % ${guests}::int + 1), 'personal', 'bench',
      encode(sha256(('personal' || i)::bytea), 'hex'), '{read}',
      case when i > ${personal}::int then now() end
    from generate_series(1, ${personal + Math.floor(personal / 10)}::int) i`.execute(t.db);
  await sql`vacuum analyze players`.execute(t.db);
  await sql`vacuum analyze tokens`.execute(t.db);

  const timed = async (run: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await run();
    return (performance.now() - started) / 1000;
  };
  // each measured twice, the first run warming the caches of both
  for (let round = 1; round <= 2; round++) {
    const valid = new ValidTokens(validTokenSourceOver(t.db));
    const filterSeconds = await timed(() => valid.reseed());
    const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
    let rows = 0;
    const referenceSeconds = await timed(async () => {
      const { rows: all } = await sql<{ token_hash: string }>`
        select token_hash from players where token_hash is not null
        union all select token_hash from tokens where revoked_at is null`.execute(t.db);
      rows = all.length;
    });
    const filter = valid.current;
    console.log(
      `round ${round}: ${TOKENS} valid tokens: filter seeded in ${filterSeconds.toFixed(2)} s ` +
        `(${filter?.count} held, ${((filter?.size ?? 0) / 8 / 2 ** 20).toFixed(1)} MiB of bits, heap ${heapMb.toFixed(0)} MiB); ` +
        `reference, one query into one array of ${rows}: ${referenceSeconds.toFixed(2)} s`,
    );
  }
} finally {
  await t.drop();
}
