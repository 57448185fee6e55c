/**
 * A demo bot in the lobby: it answers open casual seeks that nobody took within a while
 * (LOBBY_BOT_WAIT_SECONDS, 20 s), and only while no other person looks at the lobby (follows
 * the seeks on a lobby socket, on any gateway), by posting a matching seek of its own through the
 * public API (so the server pairs them as any two seekers), then plays the game with
 * playAsBot. A newcomer alone on a server gets a game; two people in the lobby get each
 * other. It also accepts the rematches people offer after its games (rematch-answerer.ts),
 * as a player would, and plays those too.
 */
import type { BotRegistry } from '@shogi/gateway';
import { type ColorPreference, isRealTime, type SeekList, type SeekView, type TimeControl } from '@shogi/protocol';
import type { Logger } from 'pino';
import type { ApiClient } from '../client.js';
import { type BotPlayer, playAsBot } from './bot.js';
import type { Random } from './brain.js';
import { type CreatePlayer, createBotPlayer } from './players.js';
import { answerRematches } from './rematch-answerer.js';
import { sleep } from './sleep.js';

export interface SeekAnswererOptions {
  readonly api: ApiClient;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly random: Random;
  readonly publicUrl: string;
  /** how long a seek waits for a person before the bot takes it (default DEFAULT_SEEK_WAIT_MS) */
  readonly waitMs?: number;
  /**
   * How many players other than `except` look at the lobby now (a lobby socket following the
   * seeks on any gateway; the server's own bots never count): RunningGateway.lobbyLookers.
   */
  readonly lookers: (except: readonly string[]) => Promise<number>;
  readonly pollMs?: number;
  /** games the bot plays at once (of them at most one real-time: the server's rule); seeks beyond are left to people */
  readonly maxGames?: number;
  readonly moveDelayMs?: number;
  /** a game where nothing happened for this long is resigned (a person who left) */
  readonly idleMs?: number;
  /** how the bot's player is made (default: POST /api/players through `api`) */
  readonly createPlayer?: CreatePlayer;
  /**
   * The gateway's bots, where the bot is listed without being handed games (it finds its own):
   * a game page then knows its opponent for a bot and offers to play again.
   */
  readonly registry?: BotRegistry;
}

/** How long a seek waits for a person before the bot takes it, unless told otherwise. */
export const DEFAULT_SEEK_WAIT_MS = 20_000;

/** The bot's rating in any category: it plays only casual games, so it keeps the start rating. */
const BOT_RATING = 1500;

const opposite = (c: ColorPreference): ColorPreference => (c === 'sente' ? 'gote' : c === 'gote' ? 'sente' : 'random');

/** Whether the bot should take this seek now. */
export function worthAnswering(seek: SeekView, botId: string, now: number, waitMs: number): boolean {
  if (seek.rated || seek.status !== 'open' || seek.player.id === botId) return false;
  if (now - Date.parse(seek.createdAt) < waitMs) return false;
  const range = seek.ratingRange;
  return range === null || (BOT_RATING >= range.min && BOT_RATING <= range.max);
}

export async function answerSeeks(options: SeekAnswererOptions): Promise<void> {
  const { api, logger, signal } = options;
  const waitMs = options.waitMs ?? DEFAULT_SEEK_WAIT_MS;
  const maxGames = options.maxGames ?? 4;
  const me = await createBotPlayer(options.createPlayer ?? ((name) => api.createPlayer(name)), 'bot-lobby');
  options.registry?.add({ id: me.id, name: me.name });
  const bot: BotPlayer = me;
  const auth = { authorization: `Bearer ${me.token}` };
  const tried = new Set<string>();
  const playing = new Set<string>();
  logger.info(
    `Demo: bot-lobby answers casual seeks nobody takes within ${waitMs / 1000} s while no one else looks at the lobby (POST /api/seeks)`,
  );
  /** whether someone other than the seeker (and this bot) looks at the lobby: they may take it; unknown counts as yes */
  const othersLook = async (seek: SeekView) =>
    (await options.lookers([seek.player.id, me.id]).catch(() => Number.POSITIVE_INFINITY)) > 0;

  /** Posts the matching seek; the game id once paired (with this seek or another), else null. */
  const take = async (seek: SeekView): Promise<string | null> => {
    const mine = await api.request<SeekView>(
      'POST',
      '/api/seeks',
      {
        timeControl: seek.timeControl,
        rated: false,
        ruleset: seek.ruleset,
        color: opposite(seek.color),
        ...(seek.handicap === null ? {} : { handicap: seek.handicap }),
      },
      auth,
    );
    if (!mine.ok) return null;
    if (mine.body.gameId !== null) return mine.body.gameId;
    // someone else took the seek first: withdraw ours, unless a person paired with it meanwhile
    const cancelled = await api.request<SeekView>('DELETE', `/api/seeks/${mine.body.id}`, undefined, auth);
    if (cancelled.ok) return null;
    const now = await api.request<SeekView>('GET', `/api/seeks/${mine.body.id}`);
    return now.ok ? now.body.gameId : null;
  };

  /** Resigns a game in which nothing happened for idleMs, so a slot is not held forever. */
  const watchIdle = async (gameId: string, done: AbortSignal) => {
    const idleMs = options.idleMs ?? 10 * 60_000;
    let lastSeq = -1;
    let since = Date.now();
    while (!done.aborted && !signal.aborted) {
      await sleep(Math.min(60_000, idleMs), AbortSignal.any([done, signal]));
      const view = await api.request<{ lastSeq: number; status: string }>('GET', `/api/games/${gameId}`);
      if (!view.ok || view.body.status === 'ended') return;
      if (view.body.lastSeq !== lastSeq) {
        lastSeq = view.body.lastSeq;
        since = Date.now();
      } else if (Date.now() - since >= idleMs) {
        await api.resign(gameId, me.token);
        return;
      }
    }
  };

  /** the games of `playing` with a real-time clock: while there is one, the server refuses the bot another */
  const realTime = new Set<string>();

  /** whether a game with this clock may start now: a free slot, and no second real-time game */
  const hasRoom = (timeControl: TimeControl) =>
    playing.size < maxGames && !(realTime.size > 0 && isRealTime(timeControl));

  const play = async (gameId: string, timeControl: TimeControl) => {
    playing.add(gameId);
    if (isRealTime(timeControl)) realTime.add(gameId);
    const done = new AbortController();
    try {
      const view = await api.game(gameId);
      logger.info(`Demo: bot-lobby plays game ${gameId}; watch it: ${options.publicUrl}/api/games/${gameId}/stream`);
      watchIdle(gameId, done.signal).catch(() => undefined);
      const end = await playAsBot(view, {
        api,
        player: bot,
        via: 'ws',
        random: options.random,
        moveDelayMs: options.moveDelayMs ?? 300,
        maxMoves: 400,
        onError: (message) => logger.debug(`Demo: bot-lobby game ${gameId}: ${message}`),
      });
      logger.info(`Demo: bot-lobby's game ${gameId} ended by ${end.reason.replace('_', ' ')} after ${end.moves} moves`);
    } finally {
      done.abort();
      playing.delete(gameId);
      realTime.delete(gameId);
    }
  };

  const playingFails = (gameId: string) => (err: unknown) =>
    logger.warn({ err }, `Demo: bot-lobby's game ${gameId} stopped`);
  answerRematches({
    api,
    player: me,
    logger,
    signal,
    hasRoom,
    play: (gameId, timeControl) => {
      if (!playing.has(gameId)) play(gameId, timeControl).catch(playingFails(gameId));
    },
    retryMs: options.pollMs ?? 1000,
  }).catch((err: unknown) => logger.warn({ err }, 'Demo: bot-lobby stopped answering rematches'));

  while (!signal.aborted) {
    await sleep(options.pollMs ?? 1000, signal);
    if (signal.aborted || playing.size >= maxGames) continue;
    const list = await api.request<SeekList>('GET', '/api/seeks').catch(() => null);
    if (!list?.ok) continue;
    for (const seek of list.body.seeks) {
      if (playing.size >= maxGames || signal.aborted) break;
      if (tried.has(seek.id) || !worthAnswering(seek, me.id, Date.now(), waitMs)) continue;
      // left untried: taken once the bot's real-time game is over, if still open
      if (!hasRoom(seek.timeControl)) continue;
      // left untried too: taken once the other person has left the lobby, if still open
      if (await othersLook(seek)) continue;
      tried.add(seek.id);
      const gameId = await take(seek).catch(() => null);
      if (gameId === null || playing.has(gameId)) continue;
      play(gameId, seek.timeControl).catch(playingFails(gameId));
    }
    // seeks live 10 minutes: forget the ids of those gone from the list
    if (tried.size > 10_000) tried.clear();
  }
}
