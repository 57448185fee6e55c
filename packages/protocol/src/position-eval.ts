/**
 * The engine's evaluation of any position, streamed as it deepens: `POST
 * /api/analysis/position` answers NDJSON, one `PositionEvalLine` a line: a `start`, then a
 * `depth` line for each depth (and MultiPV line) the engine completes, then one `end`.
 * Scores are from sente's side, as in a game's analysis (analysis.ts).
 */
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { AnalysisScore } from './analysis.js';
import { Side, Usi } from './http.js';

const closed = { additionalProperties: false } as const;

/** Lines of play one request may ask for (the engine's MultiPV), as lichess's cloud eval allows. */
export const MAX_MULTI_PV = 5;
/** Moves after the SFEN one request may give: a long game's worth (the body limit holds fewer). */
export const MAX_POSITION_MOVES = 600;

export const PositionEvalRequest = Type.Object(
  {
    sfen: Type.String({ minLength: 1, maxLength: 200, description: 'the position to start from (SFEN)' }),
    moves: Type.Optional(
      Type.Array(Usi, {
        maxItems: MAX_POSITION_MOVES,
        description: 'moves played from the SFEN (USI), in order: repetition is judged over them too',
      }),
    ),
    multiPv: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_MULTI_PV, description: 'lines of play to report (default 1)' }),
    ),
    depth: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 99,
        description: "the depth to stop at, if below the server's cap (ANALYSIS_POSITION_MAX_DEPTH)",
      }),
    ),
  },
  closed,
);
export type PositionEvalRequest = Static<typeof PositionEvalRequest>;

export const POSITION_EVAL_END_REASONS = ['depth', 'time', 'superseded', 'stopped', 'unavailable'] as const;
export type PositionEvalEndReason = (typeof POSITION_EVAL_END_REASONS)[number];

export const PositionEvalStart = Type.Object(
  {
    type: Type.Literal('start'),
    id: Type.String({ description: "the evaluation's id" }),
    engine: Type.Object({ name: Type.String() }, closed),
    sideToMove: Side,
    multiPv: Type.Integer({ minimum: 1 }),
    maxDepth: Type.Integer({ minimum: 1, description: 'the search ends at this depth...' }),
    maxMs: Type.Integer({ minimum: 1, description: '...or this long after it started, whichever comes first' }),
  },
  closed,
);
export type PositionEvalStart = Static<typeof PositionEvalStart>;

export const PositionEvalDepth = Type.Object(
  {
    type: Type.Literal('depth'),
    depth: Type.Integer({ minimum: 1 }),
    seldepth: Type.Optional(Type.Integer({ minimum: 0 })),
    multipv: Type.Integer({ minimum: 1, description: '1 for the best line' }),
    score: AnalysisScore,
    nodes: Type.Optional(Type.Integer({ minimum: 0 })),
    nps: Type.Optional(Type.Integer({ minimum: 0 })),
    time: Type.Optional(Type.Integer({ minimum: 0, description: 'ms the engine has searched' })),
    pv: Type.Array(Usi, { description: 'the line, its first move the best there (USI)' }),
  },
  closed,
);
export type PositionEvalDepth = Static<typeof PositionEvalDepth>;

export const PositionEvalEnd = Type.Object(
  {
    type: Type.Literal('end'),
    reason: Type.Union(
      [
        Type.Literal('depth'),
        Type.Literal('time'),
        Type.Literal('superseded'),
        Type.Literal('stopped'),
        Type.Literal('unavailable'),
      ],
      {
        description:
          'depth: maxDepth reached; time: maxMs passed; superseded: a newer request of the same player; stopped: the engine role stopped it (shutting down, or the search failed); unavailable: the engine role stopped answering',
      },
    ),
    depth: Type.Integer({ minimum: 0, description: 'the deepest depth reported' }),
    bestmove: Type.Union([Usi, Type.Null()], { description: "the engine's best move; null when it gave none" }),
  },
  closed,
);
export type PositionEvalEnd = Static<typeof PositionEvalEnd>;

export const PositionEvalLine = Type.Union([PositionEvalStart, PositionEvalDepth, PositionEvalEnd]);
export type PositionEvalLine = Static<typeof PositionEvalLine>;

const lineCheck = Compile(PositionEvalLine);

/** A line read back (from a Redis channel, or by a client): the value, or null when it is not one. */
export const positionEvalLineOf = (value: unknown): PositionEvalLine | null =>
  lineCheck.Check(value) ? (value as PositionEvalLine) : null;
