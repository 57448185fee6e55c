/**
 * A tournament's games as one record file (`GET /api/tournament/:id/games?format=kif|kifu|csa`),
 * made with the per-game record writers (domain/record-downloads.ts) and encoded record by
 * record, so a long tournament streams with flat memory. CSA separates records with its own
 * `/` line; KIF has no separator of its own, so its records follow one another with a blank
 * line between (each starts with its `開始日時` header line).
 */
import { recordOfEvents } from '@shogi/game';
import { type Db, readStream } from '@shogi/store';
import { type CsaVersion, charsetOf, type DownloadFormat, encodeText, recordText } from '../domain/record-downloads.js';

export const TOURNAMENT_RECORD_FORMATS = ['kif', 'kifu', 'csa'] as const satisfies readonly DownloadFormat[];
export type TournamentRecordFormat = (typeof TOURNAMENT_RECORD_FORMATS)[number];

export interface RecordsOptions {
  readonly format: TournamentRecordFormat;
  readonly csaVersion: CsaVersion;
}

const SEPARATORS: Record<TournamentRecordFormat, string> = { kif: '\n', kifu: '\n', csa: '/\n' };

/** The `Content-Type` of the whole file: one charset for every record in it. */
export const recordsContentType = (o: RecordsOptions): string =>
  `text/plain; charset=${charsetOf(o.format, { csaVersion: o.csaVersion })}`;

/** The games' records in the order given, each encoded as it is read; a game without a log is left out. */
export async function* tournamentRecords(
  db: Db,
  gameIds: readonly string[],
  o: RecordsOptions,
): AsyncGenerator<Buffer> {
  const charset = charsetOf(o.format, { csaVersion: o.csaVersion });
  let first = true;
  for (const id of gameIds) {
    const record = recordOfEvents(await readStream(db, id, 0));
    if (record === null) continue;
    const text = recordText(record, o.format, { csaVersion: o.csaVersion });
    yield encodeText(`${first ? '' : SEPARATORS[o.format]}${text}`, charset);
    first = false;
  }
}
