/**
 * Every metric this server exports, in one place: their names and labels are a contract with
 * the alerting rules and the dashboard in infra/prometheus/ (docs/operations.md#metrics).
 * Names follow Prometheus's conventions (`_total` counters, base units in the name), and every
 * label takes values from a short fixed list (a queue, a kind, a limit): never a game or
 * player id, so a series count does not grow with the traffic.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { sampledGauge } from './sampled.js';

/** One registry per process: its roles (gateway, worker, engine) share one /metrics. */
export const registry = new Registry();

/** Seconds buckets for a move's round trips: a few milliseconds on a quiet server, up to seconds under overload. */
const MOVE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  movesSubmitted: new Counter({
    name: 'shogi_moves_submitted_total',
    help: 'Moves recorded as submitted (MoveSubmitted appended), by the gateway that took them',
    registers: [registry],
  }),
  movesAccepted: new Counter({
    name: 'shogi_moves_accepted_total',
    help: 'Moves a worker accepted (MoveAccepted appended)',
    registers: [registry],
  }),
  movesRejected: new Counter({
    name: 'shogi_moves_rejected_total',
    help: 'Moves refused: at once by the gateway (stage="gateway", nothing recorded), or by a worker\'s verdict (stage="worker", MoveRejected appended)',
    labelNames: ['stage'] as const,
    registers: [registry],
  }),
  verdictSeconds: new Histogram({
    name: 'shogi_move_verdict_seconds',
    help: "From a move's submission recorded to its verdict recorded, as the worker that gave it sees it",
    buckets: MOVE_BUCKETS,
    registers: [registry],
  }),
  csaEchoSeconds: new Histogram({
    name: 'shogi_csa_move_echo_seconds',
    help: "From a CSA player's move line read to its echo written back (the move's verdict), on the player's gateway",
    buckets: MOVE_BUCKETS,
    registers: [registry],
  }),
  queueJobs: sampledGauge(registry, 'shogi_queue_jobs', 'Jobs in a BullMQ queue, by state', ['queue', 'state']),
  queueOldestAge: sampledGauge(
    registry,
    'shogi_queue_oldest_job_age_seconds',
    'Age of the oldest job waiting in a queue for a worker (0: none waits)',
    ['queue'],
  ),
  gamesLive: sampledGauge(
    registry,
    'shogi_games_live',
    'Games ongoing, by kind (timed: a clock runs; untimed: correspondence or no clock)',
    ['kind'],
  ),
  sockets: sampledGauge(registry, 'shogi_sockets_open', 'Open WebSockets on this gateway, by kind', ['kind']),
  streams: sampledGauge(registry, 'shogi_streams_open', 'Open HTTP streams (NDJSON) on this gateway, by kind', [
    'kind',
  ]),
  spectators: sampledGauge(
    registry,
    'shogi_spectators',
    'Spectators connected to this gateway (spectator sockets and game streams)',
    [],
  ),
  csaConnections: sampledGauge(
    registry,
    'shogi_csa_connections',
    'CSA protocol TCP connections open on this gateway',
    [],
  ),
  engineBusy: sampledGauge(registry, 'shogi_engine_pool_busy', 'Engines of the pool searching now', []),
  engineSize: sampledGauge(registry, 'shogi_engine_pool_size', 'Engines in the pool', []),
  engineQueued: sampledGauge(
    registry,
    'shogi_engine_pool_queued',
    'Searches waiting for a free engine, by priority (move, position, analysis, screening)',
    ['priority'],
  ),
  pairingSeconds: new Histogram({
    name: 'shogi_tournament_pairing_seconds',
    help: 'Time to pair one wave of an arena or one round of a Swiss or round-robin',
    labelNames: ['system'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  }),
  refused: new Counter({
    name: 'shogi_requests_refused_total',
    help: 'Requests and connections refused by a limit, by limit (rate limits, connection caps, overload)',
    labelNames: ['limit'] as const,
    registers: [registry],
  }),
  pgPool: sampledGauge(
    registry,
    'shogi_pg_pool_clients',
    'PostgreSQL pool clients, by pool and state (total, idle, waiting: queries waiting for a client)',
    ['pool', 'state'],
  ),
  redisErrors: new Counter({
    name: 'shogi_redis_errors_total',
    help: "Errors reported by a Redis connection (a refused connection, a lost server), by the connection's role",
    labelNames: ['connection'] as const,
    registers: [registry],
  }),
  redisReconnects: new Counter({
    name: 'shogi_redis_reconnects_total',
    help: "Reconnections attempted by a Redis connection, by the connection's role",
    labelNames: ['connection'] as const,
    registers: [registry],
  }),
  restarts: new Counter({
    name: 'shogi_process_restarts_total',
    help: 'Processes the supervisor (npm start) started again after they died, by role',
    labelNames: ['role'] as const,
    registers: [registry],
  }),
} as const;

let processMetrics = false;

/**
 * Node's own figures (event-loop lag, GC pauses, heap, CPU, file descriptors), from the
 * process that calls this once; `role` labels every series of the process.
 */
export function collectProcessMetrics(role: string): void {
  registry.setDefaultLabels({ role });
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}
