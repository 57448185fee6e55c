/**
 * What the lobby does to start a game: a seek (paired at once with a compatible open seek,
 * else waiting, polled and cancellable), a challenge (the game opens when it is accepted),
 * an engine game (opens at once), the quick bot. Pairings and acceptances arrive on the
 * lobby socket; a new challenge there refreshes the list. A guest player is made on the
 * first request, with the name the lobby asked for.
 */
import type { BotGameBody, ChallengeView, CreateSeekBody, SeekView, TimeControl } from '@shogi/protocol';
import { api } from '../api.js';
import { h } from '../dom.js';
import { lobbySocket } from '../net/lobby.js';
import { identity, withIdentity } from '../session.js';
import { timeControlText } from '../shogi/clock.js';
import { failureSentence } from '../words/errors.js';
import { titledName } from './bot-badge.js';
import type { CreateRequest } from './create-terms.js';

export interface LobbyPlay {
  /** the line saying what the lobby waits for (a seek, a challenge), with a Cancel */
  readonly status: HTMLElement;
  /** carries out the dialog's request; resolves with an error to show, or null */
  create(request: CreateRequest): Promise<string | null>;
  /** seeks on the terms of someone's open seek (they pair at once) */
  answerSeek(seek: SeekView): Promise<string | null>;
  playBot(botId: string, body: BotGameBody): Promise<string | null>;
  /** (re)opens the lobby socket as the player this browser now plays as */
  listen(): void;
  close(): void;
}

export interface LobbyPlayContext {
  navigate(path: string): void;
  /** the name a new guest takes */
  guestName(): string;
  /** told when a guest may have been made, and when a challenge came in */
  onIdentity(): void;
  onChallenge(): void;
  /** the open seeks, sent on the lobby socket as they change */
  onSeeks(seeks: readonly SeekView[]): void;
  /** the lobby socket opened or closed */
  onLive(connected: boolean): void;
}

const message = (err: unknown) => failureSentence(err);
const terms = (tc: TimeControl, rated: boolean) => `${timeControlText(tc)}, ${rated ? 'rated' : 'casual'}`;

export function lobbyPlay(ctx: LobbyPlayContext): LobbyPlay {
  const status = h('div', { class: 'waiting', role: 'status' });
  let socket: { close(): void } | null = null;
  let mySeek: string | null = null;
  let poll: ReturnType<typeof setInterval> | undefined;

  const listen = () => {
    socket?.close();
    ctx.onLive(false);
    const me = identity();
    socket = me
      ? lobbySocket(
          me.token,
          (m) => {
            if (m.type === 'paired' || m.type === 'accepted') ctx.navigate(`/games/${m.gameId}`);
            else if (m.type === 'challenge' || m.type === 'rematch') ctx.onChallenge();
            else if (m.type === 'declined') status.textContent = 'Your challenge was declined.';
            else if (m.type === 'seeks') ctx.onSeeks(m.seeks);
          },
          ctx.onLive,
          true,
        )
      : null;
  };
  const asMe = async <T>(act: (token: string) => Promise<T>): Promise<T> => {
    const had = identity();
    const result = await withIdentity((me) => act(me.token), ctx.guestName());
    if (identity()?.id !== had?.id) {
      ctx.onIdentity();
      listen();
    } else if (!socket) listen();
    return result;
  };

  const cancelSeek = async () => {
    const me = identity();
    const id = mySeek;
    mySeek = null;
    clearInterval(poll);
    status.textContent = '';
    if (id && me) await api.del(`/api/seeks/${id}`, me.token).catch(() => {});
  };

  const seek = async (body: CreateSeekBody): Promise<string | null> => {
    try {
      const s = await asMe((token) => api.post<SeekView>('/api/seeks', body, token));
      if (s.status === 'paired' && s.gameId) {
        ctx.navigate(`/games/${s.gameId}`);
        return null;
      }
      mySeek = s.id;
      status.replaceChildren(
        `Looking for an opponent (${terms(s.timeControl, s.rated)})… `,
        h('button', { type: 'button', onclick: () => void cancelSeek() }, 'Cancel'),
      );
      clearInterval(poll);
      poll = setInterval(async () => {
        if (!mySeek) return;
        const now = await api.get<SeekView>(`/api/seeks/${mySeek}`).catch(() => null);
        if (now?.status === 'paired' && now.gameId) ctx.navigate(`/games/${now.gameId}`);
        else if (now && now.status !== 'open') {
          mySeek = null;
          clearInterval(poll);
          status.textContent = `Your seek is ${now.status}.`;
        }
      }, 2000);
      return null;
    } catch (err) {
      return message(err);
    }
  };

  const playBot = async (botId: string, body: BotGameBody): Promise<string | null> => {
    try {
      const view = await asMe((token) => api.botGame(botId, token, body));
      ctx.navigate(`/games/${view.id}`);
      return null;
    } catch (err) {
      return message(err);
    }
  };

  return {
    status,
    listen,
    playBot,
    async create(request) {
      if (!request.ok) return request.error;
      if (request.kind === 'seek') return seek(request.body);
      if (request.kind === 'engine') return playBot(request.botId, request.body);
      try {
        const c = await asMe((token) => api.post<ChallengeView>('/api/challenges', request.body, token));
        status.replaceChildren(
          'Challenge sent to ',
          ...titledName(c.opponent),
          ` (${terms(c.timeControl, c.rated)}); the game opens when they accept.`,
        );
        return null;
      } catch (err) {
        return message(err);
      }
    },
    answerSeek(s) {
      // the same terms, rated flag and handicap included: only those pair with it
      const color = s.color === 'sente' ? 'gote' : s.color === 'gote' ? 'sente' : 'random';
      return seek({
        timeControl: s.timeControl,
        rated: s.rated,
        color,
        ruleset: s.ruleset,
        ...(s.handicap === null ? {} : { handicap: s.handicap }),
      });
    },
    close() {
      clearInterval(poll);
      socket?.close();
      ctx.onLive(false);
    },
  };
}
