/**
 * A game's analysis by the engine role: `POST` and `GET /api/games/{id}/analysis`, and the
 * progress frames watchers get (spectate.ts). Scores are from sente's side; judgments are of
 * the move that led to each position (packages/engine-bots judgment.ts).
 */
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Usi } from './http.js';

const closed = { additionalProperties: false } as const;

export const JUDGMENTS = ['inaccuracy', 'mistake', 'blunder'] as const;
export const Judgment = Type.Union([Type.Literal('inaccuracy'), Type.Literal('mistake'), Type.Literal('blunder')]);
export type Judgment = (typeof JUDGMENTS)[number];

/** An evaluation from sente's side: centipawns, or a forced mate in plies (positive: sente mates). */
export const AnalysisScore = Type.Union([
  Type.Object({ cp: Type.Integer({ description: "centipawns, from sente's side" }) }, closed),
  Type.Object(
    {
      mate: Type.Integer({
        description:
          'plies to a forced mate: positive when sente mates, negative when gote does; 0 when the side to move is already mated',
      }),
    },
    closed,
  ),
]);
export type AnalysisScore = Static<typeof AnalysisScore>;

/** One position of the game, after `ply` moves (0 is the start). */
export const AnalysisPly = Type.Object(
  {
    ply: Type.Integer({ minimum: 0, description: 'moves played before this position' }),
    score: AnalysisScore,
    best: Type.Union([Usi, Type.Null()], {
      description: 'the best move here, by the engine (null when the game is over here)',
    }),
    pv: Type.Array(Usi, { description: 'the line the engine expects from here, starting with best' }),
    judgment: Type.Union([Judgment, Type.Null()], {
      description: 'of the move that led here (move number `ply`); null at the start and for good moves',
    }),
    by: Type.Optional(
      Type.Union([Type.Literal('sente'), Type.Literal('gote')], {
        description:
          "in the players' analysis (`source: 'players'`): whose engine said it, in its comment on move `ply`",
      }),
    ),
  },
  closed,
);
export type AnalysisPly = Static<typeof AnalysisPly>;

export const ANALYSIS_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const AnalysisStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

const EngineName = Type.String({ minLength: 1, maxLength: 100, description: "as the engine gave it in 'id name'" });
/**
 * The engine and the limit each position was searched to; or, for the players' analysis, the
 * players' own engines, whose comments on their moves (a CSA engine's `'* score line`) say
 * what they thought of the position after each move.
 */
export const AnalysisEngine = Type.Union([
  Type.Object({ name: EngineName, depth: Type.Integer({ minimum: 1 }) }, closed),
  Type.Object({ name: EngineName, movetime: Type.Integer({ minimum: 1, description: 'ms per position' }) }, closed),
  Type.Object(
    {
      name: EngineName,
      source: Type.Literal('players', {
        description: "the players' engines, from their move comments: no judgments, only the commented positions",
      }),
    },
    closed,
  ),
]);
export const ANALYSIS_SOURCES = ['server', 'players'] as const;
export type AnalysisSource = (typeof ANALYSIS_SOURCES)[number];
export type AnalysisEngine = Static<typeof AnalysisEngine>;

export const AnalysisResponse = Type.Object(
  {
    status: AnalysisStatus,
    engine: AnalysisEngine,
    plies: Type.Array(AnalysisPly, { description: 'the positions analysed so far, in order' }),
  },
  closed,
);
export type AnalysisResponse = Static<typeof AnalysisResponse>;

/** A watcher's news of an analysis of the game: its status and how many positions are done of how many. */
export const WatchAnalysis = Type.Object(
  {
    type: Type.Literal('analysis'),
    status: AnalysisStatus,
    done: Type.Integer({ minimum: 0, description: 'positions analysed so far' }),
    total: Type.Integer({ minimum: 0, description: 'positions in the game: its moves plus one' }),
  },
  closed,
);
export type WatchAnalysis = Static<typeof WatchAnalysis>;

const engineCheck = Compile(AnalysisEngine);
const watchAnalysisCheck = Compile(WatchAnalysis);

/** An engine record read back (from the database): the value, or null when it is not one. */
export const analysisEngineOf = (value: unknown): AnalysisEngine | null =>
  engineCheck.Check(value) ? (value as AnalysisEngine) : null;

/** A progress message read back (from a Redis channel): the value, or null when it is not one. */
export const watchAnalysisOf = (value: unknown): WatchAnalysis | null =>
  watchAnalysisCheck.Check(value) ? (value as WatchAnalysis) : null;
