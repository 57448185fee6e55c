/**
 * Imports a CSA or KIF record as a finished historical game: bytes -> `decodeRecord`,
 * every move validated by replaying it through the rules' `PositionHistory`, then the events a
 * live game would have (GameCreated, MoveSubmitted + MoveAccepted per move, the ending) appended
 * in ONE transaction with the `imported_games` row. An invalid record writes nothing.
 *
 * The result: what the board decides (checkmate, stalemate, sennichite, perpetual check,
 * an impasse declaration judged by the 27-point rule) wins; otherwise the record's stated
 * ending (`%TORYO`: the side to move resigned, ...), else its CSA `'summary:` line.
 * An ending the live server has no reason for (an interruption) is appended as GameEnded
 * 'abort' with the winner, and the finer reason is kept in imported_games.end_reason, which
 * the statistics projector prefers.
 */
import { createHash } from 'node:crypto';
import { END_REASONS, type EndReason, type GameEvent, VersionConflictError } from '@shogi/game';
import {
  type Color,
  type ColorName,
  decodeRecord,
  type GameRecord,
  handicapOf,
  PositionHistory,
  parseSfen,
  type Ruleset,
  toSfen,
} from '@shogi/rules';
import { appendEvents } from '../append.js';
import { UNIQUE_VIOLATION } from '../event-rows.js';
import type { Db } from '../schema.js';
import { statsDb } from './projector.js';
import type { StatsEndReason } from './schema.js';

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
      readonly ply: number;
      readonly line: number;
      readonly message: string;
    };

const COLOR_NAMES: readonly ColorName[] = ['sente', 'gote'];
const other = (c: Color): Color => (c ^ 1) as Color;

interface Ending {
  readonly winner: Color | null;
  readonly reason: StatsEndReason;
}

/** `'summary:reason:NAME1 win|lose|draw:NAME2 ...` (the CSA/Floodgate server). */
function summaryEnding(record: GameRecord): Ending | null {
  const parts = record.summary?.split(':');
  if (parts === undefined || parts.length < 3) return null;
  const kind = parts[0] ?? '';
  const verdicts = parts.slice(1).map((p) => /^(.*) (win|lose|draw)$/.exec(p.trim()));
  const winnerName = verdicts.find((v) => v?.[2] === 'win')?.[1];
  const loserName = verdicts.find((v) => v?.[2] === 'lose')?.[1];
  let winner: Color | null = null;
  if (winnerName !== undefined && winnerName === record.players.sente) winner = 0;
  else if (winnerName !== undefined && winnerName === record.players.gote) winner = 1;
  else if (loserName !== undefined && loserName === record.players.sente) winner = 1;
  else if (loserName !== undefined && loserName === record.players.gote) winner = 0;
  const reason: StatsEndReason =
    kind === 'toryo'
      ? 'resignation'
      : kind === 'time up'
        ? 'timeout'
        : kind === 'sennichite'
          ? 'sennichite'
          : kind === 'max_moves'
            ? 'max_moves'
            : winner === null
              ? 'interrupted'
              : 'illegal_move';
  return { winner, reason };
}

/** The stated ending when the board did not end the game; `toMove` is the side to move after the last move. */
function statedEnding(record: GameRecord, toMove: Color): Ending {
  switch (record.ending?.kind) {
    case 'toryo':
      return { winner: other(toMove), reason: 'resignation' };
    case 'tsumi':
      return { winner: other(toMove), reason: 'checkmate' };
    case 'time_up':
      return { winner: other(toMove), reason: 'timeout' };
    case 'illegal_move':
      return { winner: other(toMove), reason: 'illegal_move' };
    case '+illegal_action':
      return { winner: 1, reason: 'illegal_move' };
    case '-illegal_action':
      return { winner: 0, reason: 'illegal_move' };
    case 'sennichite':
      return { winner: null, reason: 'sennichite' };
    case 'hikiwake':
    case 'jishogi':
    case 'max_moves':
      return { winner: null, reason: 'max_moves' };
    case undefined:
      return summaryEnding(record) ?? { winner: null, reason: 'interrupted' };
    default:
      return { winner: null, reason: 'interrupted' };
  }
}

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
}

/** Validates and imports one record; a record already imported (same bytes) is a duplicate, not an error. */
export async function importRecord(
  db: Db,
  bytes: Uint8Array,
  sourceFile: string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const fail = (ply: number, line: number, message: string): ImportOutcome => ({
    ok: false,
    file: sourceFile,
    ply,
    line,
    message,
  });
  const decoded = decodeRecord(bytes, sourceFile);
  if (!decoded.ok) return fail(0, decoded.error.line, `${decoded.error.code}: ${decoded.error.message}`);
  const { record, format } = decoded.value;
  const ruleset = options.ruleset ?? 'default';
  const start = parseSfen(record.sfen);
  if (!start.ok) return fail(0, 0, `bad start position: ${start.error.message}`);
  const game = new PositionHistory(start.value, ruleset);
  const startedAt = headerTime(record.info.start_time) ?? options.now ?? new Date();
  let clock = startedAt.getTime();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const gameId = `imp-${sha256.slice(0, 24)}`;
  const sente = playerRef(record.players.sente, 'sente');
  const gote = playerRef(record.players.gote, 'gote');
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
      },
    },
  ];
  for (const [i, usi] of record.moves.entries()) {
    if (game.outcome.status !== 'ongoing')
      return fail(i + 1, 0, `move ${usi} after the game ended (${game.outcome.status})`);
    const color = COLOR_NAMES[game.position.side] as ColorName;
    clock += (record.times[i] ?? 0) * 1000;
    const at = new Date(clock).toISOString();
    const played = game.playUsi(usi);
    if (!played.ok) return fail(i + 1, 0, `illegal move ${usi}: ${played.error}`);
    const player = color === 'sente' ? sente : gote;
    events.push(
      { type: 'MoveSubmitted', data: { playerId: player.id, color, usi, ply: i, receivedAt: at } },
      {
        type: 'MoveAccepted',
        data: {
          submittedSeq: events.length + 1,
          ply: i + 1,
          usi,
          sfen: toSfen(game.position),
          check: game.position.inCheck(),
        },
      },
    );
  }
  const endedAt = (headerTime(record.info.end_time) ?? new Date(clock)).toISOString();
  if (record.ending?.kind === 'kachi' && game.outcome.status === 'ongoing') game.declareImpasse();
  const outcome = game.outcome;
  const toMove = game.position.side;
  let ending: Ending;
  if (outcome.status === 'ongoing') ending = statedEnding(record, toMove);
  else if (outcome.status === 'impasse') {
    ending = { winner: outcome.winner, reason: 'impasse' };
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
  } else ending = { winner: 'winner' in outcome ? outcome.winner : null, reason: outcome.status };
  const winner = ending.winner === null ? null : (COLOR_NAMES[ending.winner] as ColorName);
  if (ending.reason === 'resignation')
    events.push({
      type: 'Resigned',
      data: { color: COLOR_NAMES[other(ending.winner ?? 0)] as ColorName, at: endedAt },
    });
  // endings the live server has no event reason for are recorded as an abort; the finer
  // reason stays in imported_games
  const eventReason: EndReason = (END_REASONS as readonly string[]).includes(ending.reason)
    ? (ending.reason as EndReason)
    : 'abort';
  events.push({ type: 'GameEnded', data: { winner, reason: eventReason, at: endedAt } });

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
          source_file: sourceFile,
          format,
          sha256,
          record_ending:
            record.ending?.raw ?? (record.summary === null ? null : printable(`'summary:${record.summary}`)),
          end_reason: ending.reason,
        })
        .execute();
      await appendEvents(trx as unknown as Db, gameId, 0, events);
    });
  } catch (e) {
    // the same record imported concurrently: the other import won
    if ((e as { code?: string }).code === UNIQUE_VIOLATION || e instanceof VersionConflictError)
      return { ok: true, duplicate: true, gameId };
    throw e;
  }
  return {
    ok: true,
    gameId,
    plies: record.moves.length,
    result: winner ?? (eventReason === 'abort' ? 'none' : 'draw'),
    reason: ending.reason,
  };
}
