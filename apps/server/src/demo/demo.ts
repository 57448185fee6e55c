/**
 * The demo: two bots play whole games through the public HTTP API and WebSocket, one
 * after another, and the log says in plain words what happens. With an engine they are
 * house engine bots of two levels, so the games look like shogi; without, random movers.
 */
import type { Level } from '@shogi/engine-bots';
import type { BotRegistry } from '@shogi/gateway';
import type { Logger } from 'pino';
import { ApiClient } from '../client.js';
import type { EngineClient } from '../house/engine-client.js';
import { engineDecide } from '../house/house-bots.js';
import { type BotPlayer, type Decide, playAsBot } from './bot.js';
import { seeded } from './brain.js';
import { type CreatePlayer, createBotPlayer } from './players.js';
import { answerSeeks } from './seek-answerer.js';

export interface DemoOptions {
  readonly baseUrl: string;
  /** the address to print for people (the bind address may be 0.0.0.0) */
  readonly publicUrl: string;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly moveDelayMs?: number;
  readonly pauseBetweenGamesMs?: number;
  readonly maxGames?: number;
  readonly seed?: number;
  /** a third bot answers casual seeks nobody takes (default true) */
  readonly answerSeeks?: boolean;
  /** how long a seek waits for a person before that bot takes it (LOBBY_BOT_WAIT_SECONDS) */
  readonly seekWaitMs?: number;
  /** who looks at the lobby: the bot takes no seek while another person does (RunningGateway.lobbyLookers) */
  readonly lobbyLookers?: (except: readonly string[]) => Promise<number>;
  /** how the bots' players are made (default: POST /api/players on baseUrl) */
  readonly createPlayer?: CreatePlayer;
  /** the engine role's client: the two bots then play at `levels` (built-in moves while no engine runs) */
  readonly engine?: EngineClient | null;
  /** the two bots' levels with an engine (default 2 and 6: a visible difference in strength) */
  readonly levels?: readonly [Level, Level];
  /** the gateway's bots, where the seek-answering bot is listed (so its games offer to play again) */
  readonly registry?: BotRegistry;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export async function runDemo(options: DemoOptions): Promise<void> {
  const { logger, signal } = options;
  const api = new ApiClient(options.baseUrl);
  const random = seeded(options.seed ?? Date.now());
  const create = options.createPlayer ?? ((name: string) => api.createPlayer(name));
  const a = await createBotPlayer(create, 'bot-a');
  const b = await createBotPlayer(create, 'bot-b');
  const [levelA, levelB] = options.levels ?? [2, 6];
  const levels: Record<string, Level> = { [a.id]: levelA, [b.id]: levelB };
  const engine = options.engine ?? null;
  const running = engine === null ? null : await engine.available();
  const how =
    engine === null
      ? 'random movers'
      : `engine levels ${levelA} and ${levelB}${running === null ? ', random movers until an engine runs' : ''}`;
  logger.info(
    `Demo: two bots, ${a.name} and ${b.name} (${how}), will play games through the public API (pass --no-demo to skip)`,
  );
  const decide = (gameId: string, player: BotPlayer, side: 'sente' | 'gote'): { decide?: Decide } =>
    engine === null
      ? {}
      : {
          decide: engineDecide(api, gameId, side, levels[player.id] as Level, {
            engine,
            random,
            onFallback: (reason) => logger.debug(`Demo: ${player.name}: a built-in move (${reason})`),
          }),
        };
  if (options.answerSeeks !== false && options.lobbyLookers !== undefined) {
    // runs beside the demo games until the demo stops
    answerSeeks({
      api,
      lookers: options.lobbyLookers,
      ...(options.seekWaitMs === undefined ? {} : { waitMs: options.seekWaitMs }),
      logger,
      signal,
      random: seeded((options.seed ?? Date.now()) + 1),
      publicUrl: options.publicUrl,
      createPlayer: create,
      ...(options.registry === undefined ? {} : { registry: options.registry }),
    }).catch((err: unknown) => {
      if (!signal.aborted) logger.warn({ err }, 'Demo: bot-lobby stopped after an error');
    });
  }

  for (let n = 1; !signal.aborted && n <= (options.maxGames ?? Number.POSITIVE_INFINITY); n++) {
    // colors alternate; every third game is played under the JSA ruleset
    const [sente, gote] = n % 2 === 1 ? [a, b] : [b, a];
    const ruleset = n % 3 === 0 ? 'jsa' : 'default';
    // as two players start a game: one challenges, the other accepts
    const view = await api.startGame(sente, gote, { ruleset });
    logger.info(`Demo: game ${n} started, sente=${sente.name} gote=${gote.name}, ruleset ${ruleset}`);
    logger.info(
      `Watch it: GET ${options.publicUrl}/api/games/${view.id}` +
        ` (move by move: curl -N ${options.publicUrl}/api/games/${view.id}/stream)`,
    );
    const common = {
      api,
      random,
      moveDelayMs: options.moveDelayMs ?? 150,
      maxMoves: 400,
      onError: (message: string) => logger.debug(`Demo: game ${n}: ${message}`),
    };
    const [end] = await Promise.all([
      playAsBot(view, { ...common, player: sente, via: 'http', ...decide(view.id, sente, 'sente') }),
      playAsBot(view, { ...common, player: gote, via: 'ws', ...decide(view.id, gote, 'gote') }),
    ]);
    const winner =
      end.winner === null ? 'a draw' : `winner ${end.winner} (${end.winner === 'sente' ? sente.name : gote.name})`;
    const reason = end.reason.replace('_', ' ');
    logger.info(`Demo: game ${n} ended by ${reason} after ${end.moves} moves, ${winner}`);
    await sleep(options.pauseBetweenGamesMs ?? 3000, signal);
  }
}
