/**
 * Imports CSA, KIF, KI2 and JKF records as finished historical games: bytes -> `decodeRecord`,
 * every move validated by replaying it through the rules' `PositionHistory` (the variations
 * too, from where they branch), then the events a live game would have (GameCreated with the
 * record's own words in `record`, MoveSubmitted + MoveAccepted per move, the ending) appended
 * in ONE transaction with the `imported_games` row. An invalid record writes nothing.
 *
 * The result: what the board decides (checkmate, stalemate, sennichite, perpetual check,
 * an impasse declaration judged by the 27-point rule) wins; otherwise what the record states
 * (record-outcome.ts: the ending, the closing line, the CSA summary). The finer reason is
 * kept in imported_games.end_reason, which the statistics projector prefers.
 *
 * `importRecordBytes` is the one entry for a file's bytes (the CLI and the HTTP import): a CSA
 * file of several records (`/` lines) gives one outcome per record.
 */
import { createHash } from 'node:crypto';
import { type GameEvent, type RecordNotes, VersionConflictError } from '@shogi/game';
import {
  type Color,
  type ColorName,
  decodeRecord,
  type GameRecord,
  handicapOf,
  PositionHistory,
  parseSfen,
  type RecordVariation,
  type Ruleset,
  splitRecords,
  toSfen,
} from '@shogi/rules';
import { appendEvents } from '../append.js';
import { UNIQUE_VIOLATION } from '../event-rows.js';
import type { Db } from '../schema.js';
import { statsDb } from './projector.js';
import { type RecordOutcome, statedOutcome } from './record-outcome.js';
import type { StatsEndReason } from './schema.js';

/** Why a record was not imported: a reader's error code, or what replaying it found. */
export type ImportFailureCode = string;

export type ImportOutcome =
  | {
      readonly ok: true;
      readonly gameId: string;
      readonly plies: number;
      readonly result: string;
      readonly reason: StatsEndReason;
    }
  | { readonly ok: true; readonly duplicate: true; readonly gameId: string }
  | {
      readonly ok: false;
      readonly file: string;
      /** The move the record failed at (0: before any move). */
      readonly ply: number;
      /** 1-based line of the file, 0 when the failure is not tied to a line. */
      readonly line: number;
      /** A record reader's code (`bad_move`, `unsupported_format`, ...), `illegal_move`, or `refused_by_database`. */
      readonly code: ImportFailureCode;
      readonly message: string;
    };

const COLOR_NAMES: readonly ColorName[] = ['sente', 'gote'];

/** `YYYY/MM/DD HH:MM:SS` of CSA/KIF headers, taken as Japan time (both formats come from there). */
function headerTime(text: string | undefined): Date | null {
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\D+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(text?.trim() ?? '');
  if (m === null) return null;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => Number(x ?? 0));
  // Date.UTC rolls 2026/02/30 over to March and reads year 0 as 1900: such a stamp is no stamp
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (local.getUTCDate() !== d) return null;
  return new Date(local.getTime() - 9 * 3600_000);
}

/** Without control characters: PostgreSQL text cannot hold NUL, and none belongs in a name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, '');

const playerRef = (name: string | null, fallback: string) => {
  const n = printable(name ?? '').trim() || fallback;
  return { id: `imported:${n}`, name: n };
};

export interface ImportOptions {
  readonly ruleset?: Ruleset;
  /** The import time when the record has no start time. */
  readonly now?: Date;
  /** The player importing it (the HTTP import), kept in GameCreated.record. */
  readonly importedBy?: string;
}

export interface ImportBytesOptions extends ImportOptions {
  /** The file's name: its extension breaks a tie between formats, and outcomes name it. */
  readonly fileName?: string;
}

/** Without NUL, which PostgreSQL's jsonb cannot hold, in every string of the record's words. */
const withoutNul = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'string' ? v.replaceAll('\0', '') : v))) as T;

/**
 * The first illegal move of a line's variations, each played from the position where it
 * branches (the SFEN after the move before it), so every move is played once. `sfens[p]` is
 * the position after p plies of the line the variations hang from.
 */
function variationFault(
  sfens: readonly string[],
  ruleset: Ruleset,
  variations: readonly RecordVariation[],
): { ply: number; message: string } | null {
  for (const v of variations) {
    const from = sfens[v.ply - 1];
    const parsed = from === undefined ? null : parseSfen(from);
    if (parsed === null || !parsed.ok) return { ply: v.ply, message: `variation from move ${v.ply}: no such move` };
    const game = new PositionHistory(parsed.value, ruleset);
    const line = sfens.slice(0, v.ply);
    for (const [i, usi] of v.moves.entries()) {
      const played = game.playUsi(usi);
      if (!played.ok)
        return { ply: v.ply + i, message: `variation from move ${v.ply}: illegal move ${usi}: ${played.error}` };
      line.push(toSfen(game.position));
    }
    const nested = variationFault(line, ruleset, v.variations);
    if (nested) return nested;
  }
  return null;
}

/** The record's words for GameCreated.record: everything but the start and the moves. */
function notesOf(record: GameRecord, format: string, importedBy: string | undefined): RecordNotes {
  return withoutNul({
    format,
    times: record.times,
    ending: record.ending,
    summary: record.summary,
    players: record.players,
    info: record.info,
    extraInfo: record.extraInfo,
    comments: record.comments,
    commentKinds: true,
    result: record.result ?? null,
    variations: record.variations ?? [],
    ...(importedBy === undefined ? {} : { importedBy }),
  });
}

/** Validates and imports one record; a record already imported (same bytes) is a duplicate, not an error. */
export async function importRecord(
  db: Db,
  bytes: Uint8Array,
  sourceFile: string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const fail = (ply: number, line: number, code: string, message: string): ImportOutcome => ({
    ok: false,
    file: sourceFile,
    ply,
    line,
    code,
    message,
  });
  const decoded = decodeRecord(bytes, sourceFile);
  if (!decoded.ok)
    return fail(0, decoded.error.line, decoded.error.code, `${decoded.error.code}: ${decoded.error.message}`);
  const { record, format } = decoded.value;
  const ruleset = options.ruleset ?? 'default';
  const start = parseSfen(record.sfen);
  if (!start.ok) return fail(0, 0, 'bad_position', `bad start position: ${start.error.message}`);
  const game = new PositionHistory(start.value, ruleset);
  // KIF's 対局日 is the date when 開始日時 is not given
  const playedOn = record.extraInfo.find((x) => x.format === 'kif' && x.key === '対局日')?.value;
  const startedAt = headerTime(record.info.start_time) ?? headerTime(playedOn) ?? options.now ?? new Date();
  let clock = startedAt.getTime();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const gameId = `imp-${sha256.slice(0, 24)}`;
  const sente = playerRef(record.players.sente, 'sente');
  const gote = playerRef(record.players.gote, 'gote');
  const sfens = [record.sfen];
  const events: GameEvent[] = [
    {
      type: 'GameCreated',
      data: {
        gameId,
        sente,
        gote,
        ruleset,
        handicap: handicapOf(record.sfen),
        initialSfen: record.sfen,
        timeControl: { kind: 'unlimited' },
        rated: false,
        createdAt: startedAt.toISOString(),
        record: notesOf(record, format, options.importedBy),
      },
    },
  ];
  for (const [i, usi] of record.moves.entries()) {
    if (game.outcome.status !== 'ongoing')
      return fail(i + 1, 0, 'move_after_end', `move ${usi} after the game ended (${game.outcome.status})`);
    const color = COLOR_NAMES[game.position.side] as ColorName;
    clock += (record.times[i] ?? 0) * 1000;
    const at = new Date(clock).toISOString();
    const played = game.playUsi(usi);
    if (!played.ok) return fail(i + 1, 0, 'illegal_move', `illegal move ${usi}: ${played.error}`);
    const sfen = toSfen(game.position);
    sfens.push(sfen);
    const player = color === 'sente' ? sente : gote;
    events.push(
      { type: 'MoveSubmitted', data: { playerId: player.id, color, usi, ply: i, receivedAt: at } },
      {
        type: 'MoveAccepted',
        data: {
          submittedSeq: events.length + 1,
          ply: i + 1,
          usi,
          sfen,
          check: game.position.inCheck(),
        },
      },
    );
  }
  const variation = variationFault(sfens, ruleset, record.variations ?? []);
  if (variation) return fail(variation.ply, 0, 'illegal_move', variation.message);
  const endedAt = (headerTime(record.info.end_time) ?? new Date(clock)).toISOString();
  if (record.ending?.kind === 'kachi' && game.outcome.status === 'ongoing') game.declareImpasse();
  const outcome = game.outcome;
  const toMove: Color = game.position.side;
  let ending: RecordOutcome;
  if (outcome.status === 'ongoing') ending = statedOutcome(record, toMove);
  else if (outcome.status === 'impasse') {
    ending = { winner: outcome.winner, reason: 'impasse', statsReason: 'impasse' };
    const d = outcome.declaration;
    events.push({
      type: 'ImpasseDeclared',
      data: {
        color: COLOR_NAMES[toMove] as ColorName,
        valid: d.valid,
        points: d.points,
        piecesInCamp: d.piecesInCamp,
        at: endedAt,
      },
    });
  } else {
    const winner = 'winner' in outcome ? outcome.winner : null;
    ending = { winner, reason: outcome.status, statsReason: outcome.status };
  }
  const winner = ending.winner === null ? null : (COLOR_NAMES[ending.winner] as ColorName);
  if (ending.reason === 'resignation' && ending.winner !== null)
    events.push({
      type: 'Resigned',
      data: { color: COLOR_NAMES[ending.winner ^ 1] as ColorName, at: endedAt },
    });
  events.push({ type: 'GameEnded', data: { winner, reason: ending.reason, at: endedAt } });

  const sdb = statsDb(db);
  const existing = await sdb
    .selectFrom('imported_games')
    .select('game_id')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (existing !== undefined) return { ok: true, duplicate: true, gameId: existing.game_id };
  try {
    await sdb.transaction().execute(async (trx) => {
      await trx
        .insertInto('imported_games')
        .values({
          game_id: gameId,
          source_file: printable(sourceFile),
          format,
          sha256,
          record_ending:
            record.ending?.raw ?? (record.summary === null ? null : printable(`'summary:${record.summary}`)),
          end_reason: ending.statsReason,
        })
        .execute();
      await appendEvents(trx as unknown as Db, gameId, 0, events);
    });
  } catch (e) {
    // the same record imported concurrently: the other import won
    const code = (e as { code?: unknown }).code;
    if (code === UNIQUE_VIOLATION || e instanceof VersionConflictError) return { ok: true, duplicate: true, gameId };
    // PostgreSQL refusing this record's data (SQLSTATE class 22, 23) fails the record, not the caller
    if (typeof code === 'string' && /^2[23]/.test(code))
      return fail(0, 0, 'refused_by_database', `not imported: ${(e as Error).message}`);
    throw e;
  }
  return {
    ok: true,
    gameId,
    plies: record.moves.length,
    result: winner ?? (ending.reason === 'abort' ? 'none' : 'draw'),
    reason: ending.statsReason,
  };
}

/**
 * Imports a file's bytes: one record, or each record of a CSA file of several (`/` lines), as
 * `FILE#1`, `FILE#2`, ... Each record is its own transaction; the outcomes come in file order.
 */
export async function importRecordBytes(
  db: Db,
  bytes: Uint8Array,
  options: ImportBytesOptions = {},
): Promise<ImportOutcome[]> {
  const name = options.fileName ?? 'record';
  const parts = splitRecords(bytes);
  const outcomes: ImportOutcome[] = [];
  for (const [i, part] of parts.entries())
    outcomes.push(await importRecord(db, part, parts.length > 1 ? `${name}#${i + 1}` : name, options));
  return outcomes;
}
