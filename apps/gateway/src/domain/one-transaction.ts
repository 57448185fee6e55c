/**
 * Several calls of a function that opens its own transaction (the store's `importRecord`,
 * shared with `npm run import`) inside ONE PostgreSQL transaction, so that a file of several
 * records is imported whole or not at all without a second import path.
 *
 * The function is handed the outer transaction, seen through a proxy whose `transaction()`
 * opens a savepoint instead (PostgreSQL nests no transactions): an inner failure rolls back
 * to its savepoint and leaves the outer transaction usable, as a failed transaction leaves
 * a pool usable. Everything else reaches the outer transaction unchanged.
 */
import type { Db } from '@shogi/store';

type Controlled = Awaited<ReturnType<ReturnType<Db['startTransaction']>['execute']>>;

/**
 * Runs `work` on one transaction; commits when `keep(result)` says so, else rolls back (and
 * always on a throw).
 */
export async function inOneTransaction<T>(
  db: Db,
  work: (db: Db) => Promise<T>,
  keep: (result: T) => boolean,
): Promise<T> {
  const trx = await db.startTransaction().execute();
  let result: T;
  try {
    result = await work(nestable(trx, trx, { next: 0 }) as Db);
  } catch (e) {
    await trx.rollback().execute();
    throw e;
  }
  await (keep(result) ? trx.commit() : trx.rollback()).execute();
  return result;
}

/** `view` (the transaction, or a `withTables` view of it) whose nested transactions are savepoints of `trx`. */
function nestable(view: object, trx: Controlled, names: { next: number }): object {
  return new Proxy(view, {
    get(target, prop) {
      if (prop === 'transaction') return () => savepointBuilder(trx, names);
      if (prop === 'withTables') return () => nestable((target as Db).withTables(), trx, names);
      const value = Reflect.get(target, prop, target);
      // kysely keeps its state in private fields, which only the real instance can read
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * What `db.transaction()` answers: `execute(callback)` runs the callback between a savepoint
 * and its release, rolling back to it when the callback throws. Settings of a transaction
 * (an isolation level) are the outer one's, so they are taken and ignored.
 */
function savepointBuilder(trx: Controlled, names: { next: number }) {
  const builder = {
    setIsolationLevel: () => builder,
    setAccessMode: () => builder,
    async execute<R>(callback: (inner: Db) => Promise<R>): Promise<R> {
      const name = `nested_${++names.next}`;
      const point = (await trx.savepoint(name).execute()) as unknown as Controlled;
      let result: R;
      try {
        result = await callback(nestable(trx, trx, names) as Db);
      } catch (e) {
        await point.rollbackToSavepoint(name as never).execute();
        throw e;
      }
      await point.releaseSavepoint(name as never).execute();
      return result;
    },
  };
  return builder;
}
