/**
 * Game records over HTTP: the bodies of POST /api/import, its answers (201, and the 400 and
 * 409 that say which record, line and ply, or which game is already there), and a line of
 * the full-record NDJSON exports.
 */
import { type Static, Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from './errors.js';

const closed = { additionalProperties: false } as const;

/** POST /api/import as JSON; raw text and multipart uploads carry the file's bytes instead. */
export const ImportJsonBody = Type.Object(
  { record: Type.String({ minLength: 1, description: 'the record as text: KIF, CSA (one or several records)' }) },
  closed,
);
export type ImportJsonBody = Static<typeof ImportJsonBody>;

export const ImportQuery = Type.Object(
  {
    ruleset: Type.Optional(
      Type.String({
        enum: ['default', 'jsa'],
        description: 'the rules the moves are checked under, as npm run import --ruleset',
      }),
    ),
  },
  closed,
);

export const ImportedGame = Type.Object(
  {
    gameId: Type.String(),
    /** imported before: the game already there */
    duplicate: Type.Boolean(),
    plies: Type.Optional(Type.Integer()),
    result: Type.Optional(Type.String({ description: 'sente, gote, draw or none' })),
    reason: Type.Optional(Type.String({ description: 'how it ended, as the statistics name it' })),
  },
  closed,
);
export type ImportedGame = Static<typeof ImportedGame>;

export const ImportResponse = Type.Object(
  {
    gameId: Type.String({ description: "the first record's game (the only one, for a file of one record)" }),
    games: Type.Array(ImportedGame, { description: "each record's game, in the file's order" }),
    importedBy: Type.String({ description: 'the player who imported it' }),
  },
  closed,
);
export type ImportResponse = Static<typeof ImportResponse>;

const code = Type.Unsafe<ErrorCode>(Type.String({ enum: ERROR_CODES }));

/** 400 INVALID_RECORD: the record of the file that failed, where and why (nothing was imported). */
export const ImportRefusal = Type.Object(
  {
    code,
    message: Type.String(),
    detail: Type.Optional(Type.String()),
    file: Type.Optional(Type.String({ description: 'the record as npm run import names it: FILE, or FILE#N' })),
    record: Type.Optional(Type.Integer({ description: '1-based index of the record in the file' })),
    records: Type.Optional(Type.Integer({ description: 'records in the file' })),
    line: Type.Optional(Type.Integer({ description: 'the line of the record at fault; 0 when the fault is a move' })),
    ply: Type.Optional(Type.Integer({ description: 'the ply of the move at fault; 0 when it is not a move' })),
    reason: Type.Optional(Type.String()),
  },
  closed,
);
export type ImportRefusal = Static<typeof ImportRefusal>;

/** 409 RECORD_ALREADY_IMPORTED: every record of the file was imported before. */
export const ImportDuplicate = Type.Object(
  {
    code,
    message: Type.String(),
    detail: Type.Optional(Type.String()),
    gameId: Type.Optional(Type.String()),
    games: Type.Optional(Type.Array(ImportedGame)),
  },
  closed,
);
export type ImportDuplicate = Static<typeof ImportDuplicate>;
