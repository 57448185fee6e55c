/**
 * A record file sent to POST /api/import, imported the way `npm run import` imports a file:
 * split into its records (`splitRecords`: a CSA file may hold several between `/` lines, each
 * named FILE#N as the CLI names them) and each one given to the store's `importRecord`, the
 * CLI's own function. All of them run in one transaction: one invalid record and nothing of
 * the file is kept.
 *
 * Who imported it is kept in `imported_games.source_file` as `api/<player id>/<file name>`
 * (the CLI keeps the file's path there); the game's players are the record's names, as the
 * CLI makes them.
 *
 * Unlike the CLI, an HTTP import is capped: a file of more than `maxRecords` records is
 * refused before any is read (the split stops there), and the new records of a day are
 * capped per account and per client address: a file whose records would pass the cap is
 * refused before any is read. The day's count is read and written in the import's
 * transaction under both owners' quota locks, so imports that arrive together are counted
 * one after another and never pass the cap between them; a refused or invalid file counts
 * nothing, and a record imported before (a duplicate) is not counted again.
 */
import { type Ruleset, splitRecords } from '@shogi/rules';
import { addImportQuotaUse, type Db, importQuotaUse, importRecord, lockQuota } from '@shogi/store';
import { inOneTransaction } from './one-transaction.js';

export interface ImportedGame {
  readonly gameId: string;
  /** imported before (the same bytes): the game already there */
  readonly duplicate: boolean;
  readonly plies?: number;
  readonly result?: string;
  readonly reason?: string;
}

export type FileImport =
  | { readonly kind: 'imported'; readonly games: readonly ImportedGame[] }
  /** every record of the file was imported before */
  | { readonly kind: 'duplicate'; readonly games: readonly ImportedGame[] }
  | {
      readonly kind: 'invalid';
      /** the record's name as the CLI reports it: the file's name, FILE#N for one of several */
      readonly file: string;
      /** 1-based index of the record in the file, and how many the file holds */
      readonly record: number;
      readonly records: number;
      readonly ply: number;
      /** 0 when the reason is a move's, which the record's line does not locate */
      readonly line: number;
      readonly message: string;
    }
  /** more records than one import takes: `records` is a lower bound (the split stopped past the cap) */
  | { readonly kind: 'too-many-records'; readonly atLeast: number; readonly max: number }
  /** the day's cap of the account or of the address, which has `left` records to go */
  | {
      readonly kind: 'over-quota';
      readonly owner: 'account' | 'address';
      readonly max: number;
      readonly left: number;
      /** the file's records */
      readonly records: number;
      readonly retryAfterSeconds: number;
    };

/** The caps of an HTTP import (0: none). */
export interface ImportCaps {
  readonly maxRecords: number;
  readonly maxRecordsPerDay: number;
  /** the client's address key (client-address.ts), counted beside the importer */
  readonly address: string;
}

export interface FileImportOptions {
  /** the uploaded file's name, or null for pasted text */
  readonly fileName: string | null;
  readonly importerId: string;
  readonly ruleset?: Ruleset;
  readonly caps?: ImportCaps;
}

/** Name of a record with no file: no extension, so the format is read from the content alone. */
export const PASTED = 'pasted';

/** A file name fit for source_file and messages: no control characters or path, at most 200 characters. */
export function cleanFileName(name: string | null | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const printable = (name ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  const base = printable.split(/[\\/]/).pop() ?? '';
  return base.trim().slice(0, 200) || PASTED;
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity): PostgreSQL refusing a record's data, as the CLI counts them. */
const refusedData = (e: unknown): e is Error & { code: string } => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && /^2[23]/.test(code);
};

export async function importRecordFile(db: Db, bytes: Uint8Array, options: FileImportOptions): Promise<FileImport> {
  const name = cleanFileName(options.fileName);
  const caps = options.caps;
  const maxRecords = caps?.maxRecords || Number.POSITIVE_INFINITY;
  const parts = splitRecords(bytes, maxRecords);
  if (parts.length > maxRecords) return { kind: 'too-many-records', atLeast: parts.length, max: maxRecords };
  const source = `api/${options.importerId}/`;
  const ruleset = options.ruleset ?? 'default';
  // only `/` separators and blanks
  if (parts.length === 0)
    return { kind: 'invalid', file: name, record: 1, records: 0, ply: 0, line: 0, message: 'the file holds no record' };
  const perDay = caps?.maxRecordsPerDay ?? 0;
  const owners =
    caps === undefined || perDay === 0
      ? []
      : ([
          { kind: 'imports', key: options.importerId, owner: 'account' },
          { kind: 'imports-by-address', key: caps.address, owner: 'address' },
        ] as const);
  return inOneTransaction(
    db,
    async (trx): Promise<FileImport> => {
      // the account's lock first, then the address's: every import takes them in this order
      const used: { owner: 'account' | 'address'; id: string; records: number; freesInSeconds: number }[] = [];
      for (const o of owners) {
        await lockQuota(trx, o.kind, o.key);
        const id = `${o.owner === 'account' ? 'p' : 'a'}:${o.key}`;
        used.push({ owner: o.owner, id, ...(await importQuotaUse(trx, id)) });
      }
      // a file whose records would pass the cap is refused before any is read (each counted as
      // new: a duplicate is known only once read), so no file past it costs the replay
      const over = used.find((u) => u.records + parts.length > perDay);
      if (over !== undefined)
        return {
          kind: 'over-quota',
          owner: over.owner,
          max: perDay,
          left: Math.max(0, perDay - over.records),
          records: parts.length,
          retryAfterSeconds: Math.max(1, over.freesInSeconds),
        };
      const games: ImportedGame[] = [];
      for (const [i, part] of parts.entries()) {
        const file = parts.length > 1 ? `${name}#${i + 1}` : name;
        const invalid = (ply: number, line: number, message: string): FileImport => ({
          kind: 'invalid',
          file,
          record: i + 1,
          records: parts.length,
          ply,
          line,
          message,
        });
        let outcome: Awaited<ReturnType<typeof importRecord>>;
        try {
          outcome = await importRecord(trx, part, `${source}${file}`, { ruleset });
        } catch (e) {
          if (!refusedData(e)) throw e;
          return invalid(0, 0, `not imported: ${e.message}`);
        }
        if (!outcome.ok) return invalid(outcome.ply, outcome.line, outcome.message);
        if ('duplicate' in outcome) games.push({ gameId: outcome.gameId, duplicate: true });
        else
          games.push({
            gameId: outcome.gameId,
            duplicate: false,
            plies: outcome.plies,
            result: outcome.result,
            reason: outcome.reason,
          });
      }
      // only the new records count: one imported before added nothing
      await addImportQuotaUse(
        trx,
        used.map((u) => u.id),
        games.filter((g) => !g.duplicate).length,
      );
      return { kind: games.every((g) => g.duplicate) ? 'duplicate' : 'imported', games };
    },
    (result) => result.kind === 'imported',
  );
}
