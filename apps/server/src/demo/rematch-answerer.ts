/**
 * How bot-lobby answers rematch offers, as a player does: it follows its lobby socket and
 * accepts each casual rematch offered to it (POST /api/challenges/:id/accept) once it has room
 * for the game: its game slots, and the server's one-real-time-game rule, which holds it like
 * anyone. Notifications are best effort, so on every (re)connection it also reads its pending
 * challenges (GET /api/challenges). An offer without room yet waits for it, or expires.
 */
import type { ChallengeList, ChallengeView, TimeControl } from '@shogi/protocol';
import type { Logger } from 'pino';
import { type ApiClient, bearer } from '../client.js';
import { sleep } from './sleep.js';

export interface RematchAnswererOptions {
  readonly api: ApiClient;
  readonly player: { readonly id: string; readonly name: string; readonly token: string };
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** whether the bot has room for a game with this clock now */
  readonly hasRoom: (timeControl: TimeControl) => boolean;
  /** plays the game of an accepted offer */
  readonly play: (gameId: string, timeControl: TimeControl) => void;
  /** how often offers that found no room are tried again */
  readonly retryMs?: number;
}

/** Whether the bot takes this offer: a casual rematch offered to it, pending and not past its time. */
export function worthAccepting(c: ChallengeView, botId: string, now: number): boolean {
  return (
    c.opponent.id === botId &&
    c.rematchOf !== null &&
    !c.rated &&
    c.status === 'pending' &&
    Date.parse(c.expiresAt) > now
  );
}

/** Refusals after which the offer may be taken later: a real-time game (either player's) is on, or a limit. */
const LATER = new Set(['ALREADY_PLAYING', 'OPPONENT_PLAYING', 'RATE_LIMITED']);

interface Offer {
  readonly challenge: ChallengeView;
  /** not tried again before this instant (ms) */
  notBefore: number;
}

export async function answerRematches(options: RematchAnswererOptions): Promise<void> {
  const { api, player, logger, signal } = options;
  const retryMs = options.retryMs ?? 2000;
  const auth = bearer(player.token);
  const offers = new Map<string, Offer>();

  const consider = (c: ChallengeView) => {
    if (!offers.has(c.id) && worthAccepting(c, player.id, Date.now())) offers.set(c.id, { challenge: c, notBefore: 0 });
  };

  const accept = async (id: string, offer: Offer) => {
    const answer = await api.request<ChallengeView>('POST', `/api/challenges/${id}/accept`, undefined, auth);
    if (answer.ok && answer.body.gameId !== null) {
      offers.delete(id);
      logger.info(`Demo: ${player.name} accepted ${offer.challenge.challenger.name}'s rematch`);
      options.play(answer.body.gameId, offer.challenge.timeControl);
    } else if (!answer.ok && LATER.has(answer.body.code)) offer.notBefore = Date.now() + retryMs;
    else offers.delete(id);
  };

  /** One pass over the offers, one at a time: each game taken changes the room for the next. */
  const pass = async () => {
    for (const [id, offer] of offers) {
      const now = Date.now();
      if (signal.aborted) return;
      if (Date.parse(offer.challenge.expiresAt) <= now) offers.delete(id);
      else if (now >= offer.notBefore && options.hasRoom(offer.challenge.timeControl))
        await accept(id, offer).catch((err: unknown) => {
          offer.notBefore = Date.now() + retryMs;
          logger.debug({ err }, `Demo: ${player.name} could not answer a rematch offer`);
        });
    }
  };
  // passes never overlap; one asked for meanwhile runs right after
  let running: Promise<void> | null = null;
  let again = false;
  const answer = (): Promise<void> => {
    if (running !== null) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass();
      } while (again && !signal.aborted);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const catchUp = async () => {
    const list = await api.request<ChallengeList>('GET', '/api/challenges', undefined, auth);
    if (list.ok) for (const c of list.body.incoming) consider(c);
    await answer();
  };

  // offers without room are tried again as games end
  const retry = setInterval(() => {
    if (offers.size > 0) void answer();
  }, retryMs);
  retry.unref();
  try {
    while (!signal.aborted) {
      const socket = await api.lobbySocket(player.token).catch(() => null);
      if (socket !== null) {
        const stop = () => void socket.close();
        signal.addEventListener('abort', stop);
        socket.onMessage((m) => {
          if (m.type === 'hello') void catchUp().catch(() => undefined);
          else if (m.type === 'rematch') {
            consider(m.challenge);
            void answer();
          }
        });
        await socket.closed;
        signal.removeEventListener('abort', stop);
      }
      await sleep(1000, signal);
    }
  } finally {
    clearInterval(retry);
  }
}
