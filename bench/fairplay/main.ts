/**
 * The labelled fair-play bench (issue 47): scripted engine accounts (Fairy-Stockfish's best
 * move at full strength, answered the same time after every turn began: a machine's times)
 * beside scripted people-like accounts (the house levels 1-5, their times drawn from the move
 * times of the fixtures' timed records, scaled), all playing rated games through the public
 * API of the built server (challenges, moves), which screens them with its shipped screening.
 * Every account is reported once its games are played (the public way to have it screened);
 * the bench then reads the moderators' queue and prints the share of engine accounts whose
 * aggregate is markable (target ≥ 90 % after 10 games) and of people-like accounts (target 0 %).
 * Beside it, in the same run: the engine time of a screening (every position to the screening
 * depth, three lines) and of a plain analysis (one line, the analysis depth) of the same games
 * on the bench's engine, and the professional records of the fixtures judged by the same rules
 * (strong people must not come out markable).
 *
 *   npm run build && npm run bench:fairplay                        # 2 + 2 accounts, 3 games each
 *   npm run bench:fairplay -- --games 10 --engines 4 --people 5    # the issue's figure
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { LEVEL_NUMBERS, type Level } from '@shogi/engine-bots';
import { aggregate } from '@shogi/fairplay';
import { legalMoves, PositionHistory, parseSfen } from '@shogi/rules';
import { createAccount, createDb, insertToken } from '@shogi/store';
import { ApiClient, bearer } from '../../apps/server/src/client.js';
import { seeded } from '../../apps/server/src/demo/brain.js';
import { startFreshServer } from '../e2e/fresh-server.js';
import { type BenchEngine, startBenchEngine } from './engine.js';
import { professionalRecords, recordedMoveTimes } from './records.js';
import { type GameToScreen, plainAnalysisMs, screenPositions, verdictOf } from './screen.js';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '3' },
    engines: { type: 'string', default: '2' },
    people: { type: 'string', default: '2' },
    'engine-depth': { type: 'string', default: '8' },
    'engine-delay-ms': { type: 'string', default: '1500' },
    'time-scale': { type: 'string', default: '0.1' },
    'max-plies': { type: 'string', default: '80' },
    'screening-depth': { type: 'string', default: '10' },
    'analysis-depth': { type: 'string', default: '12' },
    'timed-games': { type: 'string', default: '1' },
    'skip-pros': { type: 'boolean', default: false },
    'pros-only': { type: 'boolean', default: false },
    engine: { type: 'string', default: process.env.ENGINE_PATH ?? '/usr/games/fairy-stockfish' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    seed: { type: 'string', default: '1' },
  },
});
const num = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} is a number, not ${String(values[name])}`);
  return n;
};
const GAMES = num('games');
const ENGINES = num('engines');
const PEOPLE = num('people');
const SCREENING_DEPTH = num('screening-depth');
const ANALYSIS_DEPTH = num('analysis-depth');
if ((ENGINES + PEOPLE) % 2 !== 0) throw new Error('--engines plus --people must be even: every round pairs them all');
const random = seeded(num('seed'));
const BLITZ = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 10, periods: 1 } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Account {
  readonly id: string;
  readonly username: string;
  readonly token: string;
  readonly kind: 'engine' | 'person';
  readonly level: Level | null;
}

const times = recordedMoveTimes();
console.log(
  `people-like times: ${times.seconds.length} move times of ${times.records} timed records (fixtures), × ${values['time-scale']}`,
);
const personDelayMs = () =>
  (times.seconds[Math.floor(random() * times.seconds.length)] ?? 1) * 1000 * num('time-scale');

if (values['pros-only']) {
  const own = await startBenchEngine(values.engine, 1);
  try {
    await judgeProfessionals(own);
  } finally {
    await own.close();
  }
  process.exit(0);
}

const server = await startFreshServer({
  serverDir: '.',
  redisUrl: values.redis,
  env: {
    RATE_LIMIT_AUTH_MAX: '0',
    RATE_LIMIT_REPORTS_MAX: '0',
    RATE_LIMIT_MOVES_MAX: '0',
    RATED_GAMES_PER_PAIR_PER_DAY: '0',
    SCREENING_SWEEP_MS: '2000',
    SCREENING_DEPTH: String(SCREENING_DEPTH),
    ANALYSIS_DEPTH: String(ANALYSIS_DEPTH),
  },
});
const engine = await startBenchEngine(values.engine, 2);
const db = createDb(server.databaseUrl, { max: 2 });
const api = new ApiClient(server.url);

async function register(name: string, kind: Account['kind'], level: Level | null): Promise<Account> {
  const username = `${name}_${randomBytes(3).toString('hex')}`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const made = await api.request<{ id: string }>('POST', '/api/accounts', { username, password });
  const session = await api.request<{ token: string }>('POST', '/api/session', { username, password });
  if (!made.ok || !session.ok) throw new Error(`register ${username}: ${JSON.stringify([made.body, session.body])}`);
  return { id: made.body.id, username, token: session.body.token, kind, level };
}

/** A token with the mod scope, as `npm run admin:token -- USERNAME --scope mod` mints one. */
async function modToken(): Promise<string> {
  const playerId = randomUUID();
  const username = `moderator_${randomBytes(3).toString('hex')}`;
  await createAccount(db, { id: playerId, name: username, username, passwordHash: '!' });
  const token = randomBytes(32).toString('base64url');
  const tokenHash = createHash('sha256').update(token).digest('hex');
  await insertToken(db, {
    id: randomUUID(),
    playerId,
    kind: 'personal',
    name: 'mod',
    tokenHash,
    scopes: ['mod'],
    expiresAt: null,
  });
  return token;
}

interface Played {
  readonly gameId: string;
  readonly sfen: string;
  readonly moves: string[];
  readonly times: number[];
}

/** Waits for the move of `ply` to be accepted; answers whether the game is over. */
async function accepted(gameId: string, ply: number, after: { seq: number }): Promise<boolean> {
  for (let i = 0; ; i++) {
    const { events } = await api.events(gameId, after.seq);
    let done = false;
    let over = false;
    for (const e of events) {
      after.seq = Math.max(after.seq, e.seq);
      const payload = e.payload as { ply?: number };
      if (e.type === 'MoveAccepted' && payload.ply === ply + 1) done = true;
      if (e.type === 'MoveRejected')
        throw new Error(`game ${gameId}: move ${ply} rejected ${JSON.stringify(e.payload)}`);
      if (e.type === 'GameEnded') over = true;
    }
    if (over) return true;
    if (done) return false;
    if (i > 2000) throw new Error(`game ${gameId}: move ${ply} never accepted`);
    await sleep(25);
  }
}

/** One rated game, challenged and accepted as players do, played to its end or the ply cap (then a resignation). */
async function play(sente: Account, gote: Account): Promise<Played> {
  const view = await api.startGame(sente, gote, { rated: true, timeControl: BLITZ });
  const sfen = view.initialSfen ?? 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
  const parsed = parseSfen(sfen);
  if (!parsed.ok) throw new Error('start position');
  const history = new PositionHistory(parsed.value);
  const played: Played = { gameId: view.id, sfen, moves: [], times: [] };
  const cursor = { seq: 0 };
  let turnStart = performance.now();
  for (let ply = 0; ; ply++) {
    const mover = ply % 2 === 0 ? sente : gote;
    if (ply >= num('max-plies') || legalMoves(history.position).length === 0) {
      // at the cap a people-like player resigns (an engine account would win on), else the side to move
      const other = mover === sente ? gote : sente;
      const loser = mover.kind === 'person' || other.kind !== 'person' ? mover : other;
      if (legalMoves(history.position).length > 0) await api.resign(view.id, loser.token);
      break;
    }
    const position = { sfen, moves: [...played.moves] };
    const usi =
      mover.kind === 'engine'
        ? await engine.best(position, num('engine-depth'))
        : await engine.level(position, mover.level ?? 1);
    // a machine answers the same time after its turn began; a person after a time drawn from real records
    const wait = mover.kind === 'engine' ? num('engine-delay-ms') : personDelayMs();
    await sleep(Math.max(0, turnStart + wait - performance.now()));
    const sent = await api.submitMove(view.id, mover.token, { usi, ply });
    if (!sent.ok) throw new Error(`game ${view.id}: ${usi} at ${ply}: ${JSON.stringify(sent.body)}`);
    played.times.push(performance.now() - turnStart);
    played.moves.push(usi);
    history.playUsi(usi);
    const over = await accepted(view.id, ply, cursor);
    turnStart = performance.now();
    if (over) break;
  }
  return played;
}

/** Strong people: the professional records, each side judged as if it had won, and all of them as one account. */
async function judgeProfessionals(engine: BenchEngine): Promise<void> {
  const assessed = [];
  for (const { file, record } of professionalRecords()) {
    const game: GameToScreen = {
      sfen: record.sfen,
      moves: record.moves,
      times: record.times.map(() => null),
      speed: 'classical',
      clockSeconds: null,
    };
    const { positions: searched } = await screenPositions(engine, game, SCREENING_DEPTH);
    for (const side of ['sente', 'gote'] as const) {
      const { verdict, signals, why } = verdictOf(game, searched, side);
      assessed.push({
        verdict,
        speed: 'classical' as const,
        acpl: signals.acpl,
        blurPercent: 0,
        highlyConsistentMoveTimes: false,
        meanMoveTimeMs: null,
        moveTimeSdMs: null,
      });
      console.log(
        `  pro ${file} ${side} (${record.players[side]}): ACPL ${signals.acpl.toFixed(0)}, top-3 ${(100 * signals.topThreeShare).toFixed(0)} %, first ${(100 * signals.firstChoiceShare).toFixed(0)} %: ${verdict}${why === null ? '' : ` (${why})`}`,
      );
    }
  }
  const all = aggregate(assessed, { ratedGames: assessed.length, bestRating: null });
  console.log(`professional games as one account: ${all.verdict} (target: not markable)`);
}

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(0)} %`);

try {
  const accounts: Account[] = [];
  for (let i = 0; i < ENGINES; i++) accounts.push(await register(`engine${i}`, 'engine', null));
  for (let i = 0; i < PEOPLE; i++) {
    const level = LEVEL_NUMBERS[i % 5] as Level;
    accounts.push(await register(`person${i}L${level}`, 'person', level));
  }
  const games: Played[] = [];
  const started = performance.now();
  // each round pairs every account with another at random; the pairs play at once
  for (let round = 0; round < GAMES; round++) {
    const order = [...accounts].sort(() => random() - 0.5);
    const pairs: [Account, Account][] = [];
    for (let i = 0; i + 1 < order.length; i += 2) pairs.push([order[i] as Account, order[i + 1] as Account]);
    games.push(...(await Promise.all(pairs.map(([a, b]) => (round % 2 === 0 ? play(a, b) : play(b, a))))));
    console.log(
      `round ${round + 1}/${GAMES}: ${pairs.length} games, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }

  // every account reported once (the public way to be screened), then the queue read until each is assessed
  const reporter = await register('reporter', 'person', null);
  for (const a of accounts) {
    const sent = await api.request(
      'POST',
      '/api/report',
      { username: a.username, reason: 'cheat' },
      bearer(reporter.token),
    );
    if (!sent.ok) throw new Error(`report ${a.username}: ${JSON.stringify(sent.body)}`);
  }
  const mod = await modToken();
  type Entry = { username: string; verdict: string; evidence: { games: { verdict: string }[] } };
  let entries: Entry[] = [];
  const screeningStarted = performance.now();
  for (;;) {
    const queue = await api.request<{ entries: Entry[] }>('GET', '/api/mod/queue', undefined, bearer(mod));
    if (!queue.ok) throw new Error(`queue: ${JSON.stringify(queue.body)}`);
    entries = queue.body.entries;
    const done = accounts.every(
      (a) => (entries.find((e) => e.username === a.username)?.evidence.games.length ?? 0) >= GAMES,
    );
    if (done) break;
    await sleep(2000);
  }
  console.log(`screened by the server in ${((performance.now() - screeningStarted) / 1000).toFixed(0)} s`);
  for (const kind of ['engine', 'person'] as const) {
    const mine = accounts.filter((a) => a.kind === kind);
    const rows = mine.map((a) => {
      const e = entries.find((x) => x.username === a.username);
      const tally = new Map<string, number>();
      for (const g of e?.evidence.games ?? []) tally.set(g.verdict, (tally.get(g.verdict) ?? 0) + 1);
      return { a, verdict: e?.verdict ?? 'fine', tally };
    });
    const markable = rows.filter((r) => r.verdict === 'markable').length;
    const target = kind === 'engine' ? 'target ≥ 90 %' : 'target 0 %';
    console.log(
      `${kind} accounts markable after ${GAMES} games: ${markable}/${mine.length} = ${percent(markable, mine.length)} (${target})`,
    );
    for (const r of rows)
      console.log(`  ${r.a.username}: ${r.verdict}; games ${[...r.tally].map(([v, n]) => `${n} ${v}`).join(', ')}`);
  }

  // the engine time of a screening beside a plain analysis of the same games, on the bench's engine
  const timed = games.slice(0, num('timed-games'));
  let screening = 0;
  let analysis = 0;
  let positions = 0;
  for (const g of timed) {
    const game: GameToScreen = { sfen: g.sfen, moves: g.moves, times: g.times, speed: 'blitz', clockSeconds: 600 };
    screening += (await screenPositions(engine, game, SCREENING_DEPTH)).ms;
    analysis += await plainAnalysisMs(engine, game, ANALYSIS_DEPTH);
    positions += g.moves.length + 1;
  }
  if (timed.length > 0)
    console.log(
      `engine time per game (${timed.length} games, ${(positions / timed.length).toFixed(0)} positions each): screening (depth ${SCREENING_DEPTH}, 3 lines) ${(screening / timed.length / 1000).toFixed(1)} s, plain analysis (depth ${ANALYSIS_DEPTH}, 1 line) ${(analysis / timed.length / 1000).toFixed(1)} s: ratio ${(screening / analysis).toFixed(2)}`,
    );

  if (!values['skip-pros']) await judgeProfessionals(engine);
} finally {
  await engine.close();
  await db.destroy();
  await server.stop();
}
