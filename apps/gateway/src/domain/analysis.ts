/**
 * Game analyses as the gateway serves them: a request records the analysis (one per game and
 * engine setting, the setting being that of the running engine role) and queues its job for
 * the engine role, unless it is done; a read answers the most recently requested one. The
 * stored scores are the engine's own, from the side to move: they are turned to sente's side
 * and the moves judged here, at read time (engine-bots `analysisPlies`).
 *
 * Beside the server's, a game may have the players' analysis: what their engines said of the
 * position after each of their moves, in comments sent with the moves (a CSA engine's
 * `'* score line`). It is derived from the log, where the comments are, and kept in the same
 * tables once the game has ended (the CSA front end asks for that at the end; a read does it
 * otherwise), under a setting of its own so that it never stands for the server's.
 */
import {
  type AnalysisJobData,
  analysisPlies,
  analysisSettingKey,
  commentEvaluations,
  type EnginePresence,
  normaliseScore,
  type PositionEvaluation,
  scoreOfText,
  scoreText,
} from '@shogi/engine-bots';
import {
  type AnalysisPly,
  type AnalysisResponse,
  type AnalysisSource,
  analysisEngineOf,
  type GameView,
  type WatchAnalysis,
} from '@shogi/protocol';
import type { GameRecord } from '@shogi/rules';
import {
  type AnalysisDb,
  type GameAnalysisPlyRow,
  type GameAnalysisRow,
  getAnalysis,
  keepAnalysis,
  latestAnalysis,
  listAnalysisPlies,
  PLAYER_COMMENTS_SETTING,
  requestAnalysis,
} from '@shogi/store';
import { ApiError } from './api-error.js';

export interface AnalysisServiceDeps {
  /** the game as its players see it; throws GAME_NOT_FOUND */
  view(gameId: string): Promise<GameView>;
  /** the game's record from its log (moves and the players' comments); null when there is no such game */
  record(gameId: string): Promise<GameRecord | null>;
  /** the running engine role's announcement; null when none runs */
  presence(): Promise<EnginePresence | null>;
  /** where requests are written */
  readonly db: AnalysisDb;
  /** where analyses are read */
  readonly reads: AnalysisDb;
  /** queues the job once: a second call for the same game and setting while it waits or runs adds nothing */
  enqueue(job: AnalysisJobData): Promise<void>;
  /** best effort: the watchers' news */
  publish(gameId: string, message: WatchAnalysis): Promise<void>;
  now(): Date;
}

export interface AnalysisService {
  request(gameId: string): Promise<AnalysisResponse>;
  /** the server's most recently requested analysis, else the players'; or the one `source` names */
  read(gameId: string, source?: AnalysisSource): Promise<AnalysisResponse>;
  /** keeps the players' analysis of an ended game (a no-op when its moves carry no evaluation) */
  keepPlayers(gameId: string): Promise<void>;
}

type Side = 'sente' | 'gote';
const firstSideOf = (sfen: string): Side => (sfen.split(' ')[1] === 'w' ? 'gote' : 'sente');
const other = (side: Side): Side => (side === 'sente' ? 'gote' : 'sente');

/** The players' analysis' engine record. */
const PLAYERS_ENGINE = { name: "the players' engines", source: 'players' } as const;

/** The analysis as the API answers it; the plies are the stored ones from ply 0 on, without a gap. */
export function analysisResponseOf(row: GameAnalysisRow, plies: readonly GameAnalysisPlyRow[]): AnalysisResponse {
  const engine = analysisEngineOf(row.engine);
  if (engine === null) throw new Error(`analysis ${row.game_id} ${row.setting}: no engine record`);
  const evaluations: PositionEvaluation[] = [];
  for (const ply of plies) {
    const score = scoreOfText(ply.score);
    if (ply.ply !== evaluations.length || score === null) break;
    evaluations.push({ score, pv: ply.pv });
  }
  return { status: row.status, engine, plies: analysisPlies(row.first_side, evaluations) };
}

/**
 * The players' analysis as the API answers it: only the commented positions, each scored by the
 * engine of the side that had just moved (`by`); unjudged, the scores being two engines' words.
 */
export function playersAnalysisResponseOf(
  status: AnalysisResponse['status'],
  firstSide: Side,
  plies: readonly { readonly ply: number; readonly score: string; readonly pv: readonly string[] }[],
): AnalysisResponse {
  const out: AnalysisPly[] = [];
  for (const row of plies) {
    const score = scoreOfText(row.score);
    if (score === null || row.ply < 1) continue;
    const toMove = row.ply % 2 === 0 ? firstSide : other(firstSide);
    out.push({
      ply: row.ply,
      score: normaliseScore(score, toMove),
      best: row.pv[0] ?? null,
      pv: [...row.pv],
      judgment: null,
      by: other(toMove),
    });
  }
  return { status, engine: PLAYERS_ENGINE, plies: out };
}

export function createAnalysisService(deps: AnalysisServiceDeps): AnalysisService {
  const respond = async (row: GameAnalysisRow, db: AnalysisDb) =>
    analysisResponseOf(row, await listAnalysisPlies(db, row.game_id, row.setting));

  return {
    async request(gameId) {
      const view = await deps.view(gameId);
      if (view.status !== 'ended') throw new ApiError('GAME_NOT_ENDED', 'an analysis is of an ended game');
      const presence = await deps.presence();
      if (presence === null) throw new ApiError('ENGINE_UNAVAILABLE');
      const depth = presence.analysisDepth;
      const setting = analysisSettingKey({ engineName: presence.engineName, depth });
      const row = await requestAnalysis(deps.db, {
        gameId,
        setting,
        engine: { name: presence.engineName, depth },
        firstSide: firstSideOf(view.initialSfen),
        now: deps.now(),
      });
      const response = await respond(row, deps.db);
      // a job that waits or runs is not queued twice (its id is the game and setting); one that
      // is gone while the row says otherwise (Redis lost it) is queued again
      if (row.status !== 'done') {
        await deps.enqueue({ gameId, setting });
        if (row.status === 'queued') {
          const message = {
            type: 'analysis',
            status: 'queued',
            done: response.plies.length,
            total: view.ply + 1,
          } as const;
          await deps.publish(gameId, message);
        }
      }
      return response;
    },

    async read(gameId, source) {
      if (source !== 'players') {
        const row = await latestAnalysis(deps.reads, gameId);
        if (row !== undefined) return respond(row, deps.reads);
        if (source === 'server') throw new ApiError('ANALYSIS_NOT_FOUND');
      }
      const players = await readPlayers(gameId);
      if (players === null) throw new ApiError('ANALYSIS_NOT_FOUND');
      return players;
    },

    async keepPlayers(gameId) {
      await readPlayers(gameId);
    },
  };

  /** The kept players' analysis; else derived from the log, and kept when the game has ended; null when none. */
  async function readPlayers(gameId: string): Promise<AnalysisResponse | null> {
    const kept = await getAnalysis(deps.reads, gameId, PLAYER_COMMENTS_SETTING);
    if (kept !== undefined)
      return playersAnalysisResponseOf(
        'done',
        kept.first_side,
        await listAnalysisPlies(deps.reads, gameId, kept.setting),
      );
    const view = await deps.view(gameId);
    const record = await deps.record(gameId);
    if (record === null) return null;
    // an engine's comment is read in the form it was sent, `*` first: the record keeps a comment on
    // a move without the `*` that made it one (CSA `'*`)
    const moveComments = record.comments.filter((c) => c.kind === undefined).map((c) => ({ ...c, text: `*${c.text}` }));
    const plies = commentEvaluations(record.sfen, record.moves, moveComments).map(({ ply, evaluation }) => ({
      ply,
      score: scoreText(evaluation.score),
      pv: evaluation.pv,
    }));
    if (plies.length === 0) return null;
    const firstSide = firstSideOf(record.sfen);
    if (view.status !== 'ended') return playersAnalysisResponseOf('running', firstSide, plies);
    const setting = PLAYER_COMMENTS_SETTING;
    await keepAnalysis(deps.db, { gameId, setting, engine: PLAYERS_ENGINE, firstSide, now: deps.now(), plies });
    return playersAnalysisResponseOf('done', firstSide, plies);
  }
}
