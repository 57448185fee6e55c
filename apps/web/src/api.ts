/**
 * The HTTP API, typed by @shogi/protocol (types only: the browser bundle carries no
 * schema code). Errors come back as the catalog's `{code, message, detail?}`.
 */
import type {
  AcceptedResponse,
  BotGameBody,
  BotList,
  CreatePlayerResponse,
  ErrorBody,
  ExplorerResponse,
  GameView,
  LiveResponse,
  SocketTicketResponse,
} from '@shogi/protocol';
import { errorSentence } from './words/errors.js';

export type ApiErrorBody = ErrorBody;
export class ApiFailure extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  constructor(status: number, body: ApiErrorBody) {
    // the message is what a player reads; the code and the catalog's wording stay in `body`
    super(errorSentence(status, body));
    this.status = status;
    this.body = body;
  }
}

async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(path, init);
  const text = await res.text();
  const parsed: unknown = text === '' ? null : JSON.parse(text);
  if (!res.ok) {
    const err = (parsed ?? { code: 'INTERNAL', message: res.statusText }) as ApiErrorBody;
    throw new ApiFailure(res.status, err);
  }
  return parsed as T;
}

export const api = {
  createPlayer: (name: string) => request<CreatePlayerResponse>('POST', '/api/players', { name }),
  game: (id: string) => request<GameView>('GET', `/api/games/${encodeURIComponent(id)}`),
  live: () => request<LiveResponse>('GET', '/api/live'),
  /** `games?…` or `masters?…` (docs/explorer.md) */
  explorer: (query: string) => request<ExplorerResponse>('GET', `/api/explorer/${query}`),
  bots: () => request<BotList>('GET', '/api/bots'),
  botGame: (botId: string, token: string, body: BotGameBody) =>
    request<GameView>('POST', `/api/bots/${encodeURIComponent(botId)}/games`, body, token),
  move: (id: string, token: string, usi: string, ply: number, blur = false) =>
    request<AcceptedResponse>(
      'POST',
      `/api/games/${encodeURIComponent(id)}/moves`,
      blur ? { usi, ply, blur } : { usi, ply },
      token,
    ),
  resign: (id: string, token: string) =>
    request<AcceptedResponse>('POST', `/api/games/${encodeURIComponent(id)}/resign`, {}, token),
  get: <T>(path: string) => request<T>('GET', path),
  socketTicket: (token: string) => request<SocketTicketResponse>('POST', '/api/socket-ticket', {}, token),
  post: <T>(path: string, body: unknown, token?: string) => request<T>('POST', path, body, token),
  del: <T>(path: string, token: string, body?: unknown) => request<T>('DELETE', path, body, token),
  authed: <T>(path: string, token: string) => request<T>('GET', path, undefined, token),
};

/** ws:// or wss:// for a path on this origin. */
export const socketUrl = (path: string): string =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
