/**
 * PostgreSQL transactions committed or rolled back in the server's scratch database, from
 * pg_stat_database: every statement outside a transaction block is one, so per move it counts
 * the round trips a path makes (the worker's included) better than any timing on a busy
 * machine. Backends report their counts about once a second: over a window of tens of seconds
 * that lag is a few per cent. This connection's own reads count too, one each, subtracted.
 */
import pg from 'pg';

export class PgTransactions {
  readonly #client: pg.Client;
  #reads = 0;

  private constructor(client: pg.Client) {
    this.#client = client;
  }

  static async open(url: string): Promise<PgTransactions> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new PgTransactions(client);
  }

  /** Transactions so far, less this connection's reads of the count. */
  async count(): Promise<number> {
    const { rows } = await this.#client.query<{ n: string }>(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]?.n ?? Number.NaN) - this.#reads++;
  }

  async close(): Promise<void> {
    await this.#client.end();
  }
}
