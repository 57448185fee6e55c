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
 */
import { type Ruleset, splitRecords } from '@shogi/rules';
import { type Db, importRecord } from '@shogi/store';
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
    };

export interface FileImportOptions {
  /** the uploaded file's name, or null for pasted text */
  readonly fileName: string | null;
  readonly importerId: string;
  readonly ruleset?: Ruleset;
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
  const parts = splitRecords(bytes);
  const source = `api/${options.importerId}/`;
  const ruleset = options.ruleset ?? 'default';
  // only `/` separators and blanks
  if (parts.length === 0)
    return { kind: 'invalid', file: name, record: 1, records: 0, ply: 0, line: 0, message: 'the file holds no record' };
  return inOneTransaction(
    db,
    async (trx): Promise<FileImport> => {
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
      return { kind: games.every((g) => g.duplicate) ? 'duplicate' : 'imported', games };
    },
    (result) => result.kind === 'imported',
  );
}
