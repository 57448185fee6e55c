/**
 * The engine role's queues: what a house bot or the gateway asks of it through BullMQ, and
 * what comes back. Bot moves and analyses have queues of their own, so that a long analysis
 * never sits in front of a move in Redis; inside the engine role, moves also lease engines
 * before analysis does (packages/usi PRIORITY).
 */
import type { ClockView, Side, TimeControl } from '@shogi/protocol';
import type { Ruleset } from '@shogi/rules';
import type { UsiScore } from '@shogi/usi';
import type { Level } from './levels.js';

export const ENGINE_MOVE_QUEUE = 'engine-moves';
export const ANALYSIS_QUEUE = 'engine-analysis';
/** Fair play's screening of rated games (issue 47): after moves and analyses, never before them. */
export const SCREENING_QUEUE = 'fairplay-screening';

/** Screen one ended rated game: every position searched at the screening depth, each player assessed. */
export interface ScreeningJobData {
  readonly gameId: string;
}

/** One job per game (BullMQ forbids ':' in custom ids): a game queued twice is screened once. */
export const screeningJobId = (gameId: string): string => `screen-${gameId}`;

/** A house bot's move: the position and the clock as the game view gave it, the bot on move. */
export interface EngineMoveJobData {
  readonly level: Level;
  readonly gameId: string;
  readonly initialSfen: string;
  readonly moves: readonly string[];
  readonly ruleset: Ruleset;
  readonly side: Side;
  /** null: no clock */
  readonly clock: ClockView | null;
  readonly timeControl: TimeControl;
  /** the scores of the bot's own searches in this game, oldest first: for resigning */
  readonly scores: readonly (UsiScore | undefined)[];
}

/**
 * The engine role's answer. `none`: the engine gave nothing the rules accept (the requester
 * plays its built-in move instead) or the game is already over in this position.
 */
export type EngineMoveResult =
  | { readonly kind: 'move'; readonly usi: string; readonly score?: UsiScore }
  | { readonly kind: 'resign' }
  | { readonly kind: 'impasse' }
  | { readonly kind: 'none'; readonly reason: string };

/** A whole game's analysis, under one engine setting (see analysisSettingKey). */
export interface AnalysisJobData {
  readonly gameId: string;
  readonly setting: string;
}

/** The engine and the search limit an analysis runs under: one analysis per game and setting. */
export interface AnalysisSetting {
  /** as the engine gave it in `id name` */
  readonly engineName: string;
  readonly depth: number;
}

export const analysisSettingKey = (s: AnalysisSetting): string => `${s.engineName}|depth=${s.depth}`;

/**
 * Runs of an analysis job before it is given up as failed: an engine that dies mid-search is
 * already replaced and the search run again by the pool, so these are for the rest (the
 * database or Redis away for a moment); a retried job resumes after the plies it stored.
 */
export const ANALYSIS_JOB_ATTEMPTS = 3;

/**
 * The Redis channel of a game's analysis progress: the engine role publishes a protocol
 * `WatchAnalysis` message as JSON, and gateways hand it to the game's watchers. Apart from
 * the game's channel, whose messages are its events.
 */
export const analysisChannel = (gameId: string, channelPrefix = ''): string => `${channelPrefix}analysis:${gameId}`;

/** BullMQ custom ids may not hold ':', which a setting may: it goes into the id base64url-encoded. */
export const analysisJobId = (gameId: string, setting: string): string =>
  `analysis-${gameId}-${Buffer.from(setting).toString('base64url')}`;

/**
 * What a running engine role keeps in Redis under ENGINE_PRESENCE_KEY (with a short expiry,
 * renewed while it runs): requesters fall back to their built-in player when it is missing.
 */
export interface EnginePresence {
  readonly engineName: string;
  readonly workers: number;
  readonly analysisDepth: number;
}

export const enginePresenceKey = (queuePrefix: string): string => `${queuePrefix}:engine:presence`;

/** How long a presence record lives without renewal; renewed at a third of it. */
export const ENGINE_PRESENCE_TTL_MS = 15_000;
