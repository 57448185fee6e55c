/** The only reader of process.env in the gateway: everything else takes a Config. */
import { readFileSync } from 'node:fs';
import { validateQueueCount } from '@shogi/pipeline';
import { type ClusterNode, clusterNodesOf, DEFAULT_REDIS_URL } from '@shogi/redis';
import { MAX_MOVES } from './csa/summary.js';
import { parseSchedule, type ScheduledEvent } from './tournaments/schedule.js';

export interface GatewayConfig {
  readonly host: string;
  readonly port: number;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /**
   * REDIS_CLUSTER_NODES: seed nodes of a Redis Cluster, on which every Redis use then runs
   * (sharded pub/sub, a hash tag per queue); empty: the single Redis at `redisUrl`
   */
  readonly redisClusterNodes: readonly ClusterNode[];
  /** BullMQ key prefix; on a cluster each queue's keys go under `{<prefix>:<queue>}` (@shogi/redis). */
  readonly queuePrefix: string;
  /** validate queues the work is split over by game; gateways and workers must agree (VALIDATE_QUEUES) */
  readonly validateQueues: number;
  /** prefix of the pub/sub channels the workers publish games on (`gameChannel`: `game:<id>`, tagged when there are several validate queues) */
  readonly channelPrefix: string;
  readonly logLevel: string;
  /** largest accepted HTTP body, bytes */
  readonly bodyLimit: number;
  /**
   * largest record body POST /api/import takes (raw text, an upload or JSON), bytes; the one
   * route whose body may exceed bodyLimit (413 PAYLOAD_TOO_LARGE above)
   */
  readonly importMaxBytes: number;
  /** records one POST /api/import takes (IMPORT_MAX_RECORDS; 0: no cap): a file of more is refused whole, 413 TOO_MANY_RECORDS */
  readonly importMaxRecords: number;
  /**
   * new records HTTP imports add per account and per client address over a day
   * (IMPORT_MAX_RECORDS_PER_DAY; 0: no cap): past it 429 IMPORT_QUOTA_EXCEEDED
   */
  readonly importMaxRecordsPerDay: number;
  /** largest accepted WebSocket frame, bytes */
  readonly wsMaxPayload: number;
  /** retries of decide+append after a version conflict */
  readonly maxAppendRetries: number;
  /** pg pool size */
  readonly dbPoolSize: number;
  /** games whose folded state (with its rules position, the bulk of what it caches) the gateway keeps in memory */
  readonly stateCacheSize: number;
  /** grace period for in-flight requests on shutdown, ms */
  readonly closeGraceMs: number;
  /**
   * longest time a client may take to send a whole request (headers and body), ms; 0: no
   * limit. A request that trickles in holds its connection until then. Does not bound a
   * response (NDJSON streams) nor a WebSocket once upgraded.
   */
  readonly requestTimeoutMs: number;
  /**
   * spectating: unsent bytes after which a watcher is closed with RESYNC; public long-lived
   * connections per client address (spectator sockets, NDJSON game streams, streamed downloads;
   * 0: no limit); ping period, ms
   */
  readonly watchMaxBuffered: number;
  readonly watchMaxPerIp: number;
  readonly watchHeartbeatMs: number;
  /** an ongoing game leaves the live list this long after its latest move (lishogi's TV: 120 s) */
  readonly liveFreshSeconds: number;
  /** how long a gateway trusts a token it looked up, ms: a revocation on another gateway whose Redis notice is lost takes effect after at most this */
  readonly authCacheMs: number;
  /** lifetime of a session token (POST /api/session), days */
  readonly sessionTtlDays: number;
  /** lifetime of a one-use WebSocket ticket (POST /api/socket-ticket), ms */
  readonly socketTicketTtlMs: number;
  /** open player and lobby sockets and token-bound streams per client address and per player, on each gateway (0: no limit) */
  readonly socketMaxPerIp: number;
  readonly socketMaxPerPlayer: number;
  /** unknown bearer tokens or wrong CSA trips a client address (and, for trips, an account) may present per window before its tokens are looked up only if the filter of the valid tokens may hold them (max 0: no limit) */
  readonly authFailures: RateLimit;
  /** request rate limits, shared by all gateways through Redis; `max` 0 turns one off */
  readonly rateLimits: RateLimits;
  /**
   * open seeks at once from one client address, all its players together (an IPv6 client
   * counts by its /64); 0: no limit. Guests are free to create, so the per-player limit alone
   * lets one client fill the open-seek list.
   */
  readonly lobbyMaxOpenSeeksPerIp: number;
  /**
   * rated games two players may start together in 24 hours (either colour; RATED_PAIR_LIMIT
   * past it, or a casual game where the protocol cannot answer so); 0: no cap. Two accounts
   * of one person would otherwise trade rating points.
   */
  readonly ratedGamesPerPairPerDay: number;
  /**
   * a position evaluated on request (POST /api/analysis/position) ends at this depth
   * (ANALYSIS_POSITION_MAX_DEPTH) or this long after its search began
   * (ANALYSIS_POSITION_MAX_MS), whichever comes first
   */
  readonly positionAnalysis: { readonly maxDepth: number; readonly maxMs: number };
  /** the CSA protocol's TCP listener (docs/csa.md): whether it runs (CSA_PORT=0 turns it off) */
  readonly csaListen: boolean;
  /** its port; 0 in a config made by code asks the OS for a free one (tests) */
  readonly csaPort: number;
  /** how long a CSA proposal waits for both AGREEs, ms (shogi-server's 120 s) */
  readonly csaAgreeTimeoutMs: number;
  /**
   * how long a gateway's claim to start an agreed CSA game is held, ms: when that gateway dies
   * before the start, a player's gateway takes the start over after this (docs/csa.md)
   */
  readonly csaStartLeaseMs: number;
  /** the tournament director's tick: starts, results, pairing waves, ends (docs/tournaments.md) */
  readonly tournamentTickMs: number;
  /** how long the director's Redis lease lasts unrenewed: another gateway directs after it */
  readonly tournamentLeaseMs: number;
  /** recurring tournaments the director makes (TOURNAMENT_SCHEDULE, docs/tournaments.md) */
  readonly tournamentSchedule: readonly ScheduledEvent[];
  /**
   * seconds each player of a tournament game has for their first move
   * (TOURNAMENT_FIRST_MOVE_SECONDS, default 30 as any game's): one who does not move in time
   * loses, in a Swiss by forfeit (docs/tournaments.md)
   */
  readonly tournamentFirstMoveSeconds: number;
  /**
   * the key of the client-address hashes kept per account for fair play's related accounts
   * (ADDRESS_HASH_KEY); null: a key kept in the database, made by the first gateway
   */
  readonly addressHashKey: string | null;
  /** the move limit of CSA games (Floodgate's Max_Moves, 256): a draw once that many moves are played */
  readonly csaMaxMoves: number;
  /** Floodgate rounds: every this many ms (aligned to the epoch: :00 and :30 for 30 minutes)... */
  readonly csaFloodgateIntervalMs: number;
  /** ...unless the game name has an interval of its own here */
  readonly csaFloodgateSchedule: Readonly<Record<string, number>>;
}

export interface RateLimit {
  /** requests allowed per window and key (0: no limit) */
  readonly max: number;
  readonly windowMs: number;
}

export interface RateLimits {
  /** registration and login, per client IP */
  readonly auth: RateLimit;
  /** moves and resignations (HTTP and player WebSocket), per token */
  readonly moves: RateLimit;
  /**
   * seeks, challenges, answers, rematches, socket tickets and other lobby writes, per account
   * (never per token: an account may hold many)...
   */
  readonly lobby: RateLimit;
  /** ...and per client IP, all its accounts together (a household or a club shares one) */
  readonly lobbyPerIp: RateLimit;
  /** guest players (POST /api/players), per client IP */
  readonly guests: RateLimit;
  /** games against a bot (POST /api/bots/:id/games), per account... */
  readonly botGames: RateLimit;
  /** ...and per client IP, so new guests' tokens do not lift it */
  readonly botGamesPerIp: RateLimit;
  /** analysis requests (POST /api/games/:id/analysis), per token: each may cost the engine a whole game */
  readonly analysis: RateLimit;
  /** positions evaluated on request (POST /api/analysis/position), per account... */
  readonly positionAnalysis: RateLimit;
  /** ...and per client IP, all its accounts together */
  readonly positionAnalysisPerIp: RateLimit;
  /** game chat lines (lishogi's chat routes and the web client's), per account */
  readonly chat: RateLimit;
  /** record imports (POST /api/import), per token: each replays and writes whole games */
  readonly imports: RateLimit;
  /** bulk exports of the whole database (GET /api/games/export), per client IP: each streams every game of a period */
  readonly exports: RateLimit;
  /** opening explorer queries (GET /api/explorer/*), per client IP */
  readonly explorer: RateLimit;
  /** fair-play reports (POST /api/report), per account: a report flood is refused */
  readonly reports: RateLimit;
}

type Env = Readonly<Record<string, string | undefined>>;

const int = (env: Env, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
};

export function loadConfig(env: Env = process.env): GatewayConfig {
  const redisClusterNodes = clusterNodesOf(env.REDIS_CLUSTER_NODES);
  const validateQueues = int(env, 'VALIDATE_QUEUES', validateQueueCount(redisClusterNodes.length > 0));
  if (validateQueues < 1) throw new Error('VALIDATE_QUEUES must be at least 1');
  return {
    host: env.HOST ?? '0.0.0.0',
    port: int(env, 'PORT', 3000),
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/shogi',
    redisUrl: env.REDIS_URL ?? DEFAULT_REDIS_URL,
    redisClusterNodes,
    queuePrefix: env.QUEUE_PREFIX ?? 'shogi',
    validateQueues,
    channelPrefix: env.CHANNEL_PREFIX ?? '',
    logLevel: env.LOG_LEVEL ?? 'info',
    bodyLimit: int(env, 'BODY_LIMIT', 4096),
    // a long KIF with comments is tens of KiB; a player's whole games.csa, a few MiB
    importMaxBytes: int(env, 'IMPORT_MAX_BYTES', 1024 * 1024),
    // a player's games file of years, not a site-wide dump (operators have npm run import)
    importMaxRecords: int(env, 'IMPORT_MAX_RECORDS', 1000),
    importMaxRecordsPerDay: int(env, 'IMPORT_MAX_RECORDS_PER_DAY', 5000),
    wsMaxPayload: int(env, 'WS_MAX_PAYLOAD', 1024),
    maxAppendRetries: int(env, 'MAX_APPEND_RETRIES', 5),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 16),
    stateCacheSize: int(env, 'STATE_CACHE_SIZE', 5000),
    closeGraceMs: int(env, 'CLOSE_GRACE_MS', 10_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 15_000),
    watchMaxBuffered: int(env, 'WATCH_MAX_BUFFERED', 256 * 1024),
    watchMaxPerIp: int(env, 'WATCH_MAX_PER_IP', 100),
    watchHeartbeatMs: int(env, 'WATCH_HEARTBEAT_MS', 30_000),
    liveFreshSeconds: int(env, 'LIVE_FRESH_SECONDS', 120),
    authCacheMs: int(env, 'AUTH_CACHE_MS', 5_000),
    sessionTtlDays: int(env, 'SESSION_TTL_DAYS', 30),
    socketTicketTtlMs: int(env, 'SOCKET_TICKET_TTL_MS', 30_000),
    socketMaxPerIp: int(env, 'SOCKET_MAX_PER_IP', 50),
    socketMaxPerPlayer: int(env, 'SOCKET_MAX_PER_PLAYER', 20),
    authFailures: {
      max: int(env, 'AUTH_FAILURES_MAX', 30),
      windowMs: int(env, 'AUTH_FAILURES_WINDOW_MS', 60_000),
    },
    rateLimits: {
      auth: { max: int(env, 'RATE_LIMIT_AUTH_MAX', 10), windowMs: int(env, 'RATE_LIMIT_AUTH_WINDOW_MS', 60_000) },
      moves: { max: int(env, 'RATE_LIMIT_MOVES_MAX', 20), windowMs: int(env, 'RATE_LIMIT_MOVES_WINDOW_MS', 1_000) },
      lobby: { max: int(env, 'RATE_LIMIT_LOBBY_MAX', 30), windowMs: int(env, 'RATE_LIMIT_LOBBY_WINDOW_MS', 60_000) },
      // four accounts' worth: players who share an address still play, one client cannot multiply accounts
      lobbyPerIp: {
        max: int(env, 'RATE_LIMIT_LOBBY_IP_MAX', 120),
        windowMs: int(env, 'RATE_LIMIT_LOBBY_IP_WINDOW_MS', 60_000),
      },
      // room for a household or a classroom behind one address, not for a flood of players
      guests: {
        max: int(env, 'RATE_LIMIT_GUESTS_MAX', 10),
        windowMs: int(env, 'RATE_LIMIT_GUESTS_WINDOW_MS', 600_000),
      },
      // a bot game lasts minutes, and the bot holds a socket and plays every one of them
      botGames: {
        max: int(env, 'RATE_LIMIT_BOT_GAMES_MAX', 10),
        windowMs: int(env, 'RATE_LIMIT_BOT_GAMES_WINDOW_MS', 600_000),
      },
      botGamesPerIp: {
        max: int(env, 'RATE_LIMIT_BOT_GAMES_IP_MAX', 30),
        windowMs: int(env, 'RATE_LIMIT_BOT_GAMES_IP_WINDOW_MS', 600_000),
      },
      // a player reviewing their games after a session, not a sweep of the archive
      analysis: {
        max: int(env, 'RATE_LIMIT_ANALYSIS_MAX', 10),
        windowMs: int(env, 'RATE_LIMIT_ANALYSIS_WINDOW_MS', 3_600_000),
      },
      // a player stepping through a game and its variations, a position at a time
      positionAnalysis: {
        max: int(env, 'RATE_LIMIT_POSITION_ANALYSIS_MAX', 60),
        windowMs: int(env, 'RATE_LIMIT_POSITION_ANALYSIS_WINDOW_MS', 60_000),
      },
      positionAnalysisPerIp: {
        max: int(env, 'RATE_LIMIT_POSITION_ANALYSIS_IP_MAX', 180),
        windowMs: int(env, 'RATE_LIMIT_POSITION_ANALYSIS_IP_WINDOW_MS', 60_000),
      },
      // room to talk, not to flood the other player's stream
      chat: { max: int(env, 'RATE_LIMIT_CHAT_MAX', 5), windowMs: int(env, 'RATE_LIMIT_CHAT_WINDOW_MS', 10_000) },
      // a player bringing in their old games file by file, not a bulk loader (operators have npm run import)
      imports: {
        max: int(env, 'RATE_LIMIT_IMPORTS_MAX', 60),
        windowMs: int(env, 'RATE_LIMIT_IMPORTS_WINDOW_MS', 3_600_000),
      },
      // a period's dump and its resumptions, not a poll
      exports: {
        max: int(env, 'RATE_LIMIT_EXPORTS_MAX', 30),
        windowMs: int(env, 'RATE_LIMIT_EXPORTS_WINDOW_MS', 3_600_000),
      },
      // a player stepping through openings and a board clicking along, not a crawler (lichess limits its explorer per address too)
      explorer: {
        max: int(env, 'RATE_LIMIT_EXPLORER_MAX', 300),
        windowMs: int(env, 'RATE_LIMIT_EXPLORER_WINDOW_MS', 60_000),
      },
      // a few reports after a bad day, not a campaign against an account
      reports: {
        max: int(env, 'RATE_LIMIT_REPORTS_MAX', 5),
        windowMs: int(env, 'RATE_LIMIT_REPORTS_WINDOW_MS', 3_600_000),
      },
    },
    positionAnalysis: {
      maxDepth: Math.max(1, Math.min(int(env, 'ANALYSIS_POSITION_MAX_DEPTH', 30), 99)),
      maxMs: Math.max(1, int(env, 'ANALYSIS_POSITION_MAX_MS', 15_000)),
    },
    lobbyMaxOpenSeeksPerIp: int(env, 'LOBBY_MAX_OPEN_SEEKS_PER_IP', 20),
    ratedGamesPerPairPerDay: int(env, 'RATED_GAMES_PER_PAIR_PER_DAY', 10),
    csaListen: int(env, 'CSA_PORT', 4081) !== 0,
    csaPort: int(env, 'CSA_PORT', 4081),
    csaAgreeTimeoutMs: int(env, 'CSA_AGREE_TIMEOUT_MS', 120_000),
    csaStartLeaseMs: int(env, 'CSA_START_LEASE_MS', 10_000),
    tournamentTickMs: int(env, 'TOURNAMENT_TICK_MS', 1000),
    tournamentFirstMoveSeconds: int(env, 'TOURNAMENT_FIRST_MOVE_SECONDS', 30),
    tournamentLeaseMs: int(env, 'TOURNAMENT_LEASE_MS', 10_000),
    tournamentSchedule: tournamentSchedule(env.TOURNAMENT_SCHEDULE),
    addressHashKey: env.ADDRESS_HASH_KEY === undefined || env.ADDRESS_HASH_KEY === '' ? null : env.ADDRESS_HASH_KEY,
    csaMaxMoves: int(env, 'CSA_MAX_MOVES', MAX_MOVES),
    csaFloodgateIntervalMs: int(env, 'CSA_FLOODGATE_INTERVAL_MS', 30 * 60_000),
    csaFloodgateSchedule: schedule(env, 'CSA_FLOODGATE_SCHEDULE'),
  };
}

/** TOURNAMENT_SCHEDULE: the JSON array itself, or the path of a file that holds it. */
function tournamentSchedule(raw: string | undefined): ScheduledEvent[] {
  if (raw === undefined || raw.trim() === '') return [];
  const text = raw.trim().startsWith('[') ? raw : readFileSync(raw.trim(), 'utf8');
  return parseSchedule(text);
}

/** `name=ms,name=ms`: an interval for each game name listed. */
function schedule(env: Env, name: string): Record<string, number> {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return {};
  const out: Record<string, number> = {};
  for (const item of raw.split(',')) {
    const [game, ms] = item.trim().split('=');
    const n = Number(ms);
    if (game === undefined || game === '' || !Number.isInteger(n) || n <= 0)
      throw new Error(`${name} must be "game-name=milliseconds,...", got "${raw}"`);
    out[game] = n;
  }
  return out;
}
