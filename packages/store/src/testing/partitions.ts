/**
 * Where the partitioned log puts a game, asked of PostgreSQL itself: tests pick games that
 * land in different partitions (or the same one) without copying its hash function.
 */
import { sql } from 'kysely';
import type { Db } from '../schema.js';

/** Thrown to roll the probe back. */
class ProbeRolledBack extends Error {
  readonly partition: string;
  constructor(partition: string) {
    super('probe rolled back');
    this.partition = partition;
  }
}

/**
 * The partition of `game_events` that a row of `gameId` is routed to: a probe row inserted
 * and rolled back (it uses up one global position, a gap readers already accept).
 */
export async function partitionOf(db: Db, gameId: string): Promise<string> {
  try {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ partition: string }>`
        insert into game_events (game_id, seq, type, payload) values (${gameId}, 2147483647, 'Probe', '{}')
        returning tableoid::regclass::text as partition`.execute(trx);
      throw new ProbeRolledBack(rows[0]?.partition ?? '');
    });
  } catch (e) {
    if (e instanceof ProbeRolledBack) return e.partition;
    throw e;
  }
  throw new Error('unreachable: the probe always rolls back');
}

/** The leaf partitions of `game_events`, by name (one name, the table's, when it is not partitioned). */
export async function logPartitions(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select relid::regclass::text as name from pg_partition_tree('game_events') where isleaf order by 1`.execute(db);
  return rows.length === 0 ? ['game_events'] : rows.map((r) => r.name);
}

/**
 * `count` game ids, `prefix` followed by a number, each in a partition none of the others is
 * in (fewer partitions than `count` throws).
 */
export async function gamesInDistinctPartitions(db: Db, prefix: string, count: number): Promise<string[]> {
  const found = new Map<string, string>();
  for (let i = 0; found.size < count; i++) {
    if (i > 1000) throw new Error(`no ${count} distinct partitions for ${prefix}*`);
    const id = `${prefix}${i}`;
    const partition = await partitionOf(db, id);
    if (!found.has(partition)) found.set(partition, id);
  }
  return [...found.values()];
}
