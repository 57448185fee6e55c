/**
 * A small client of the public API (HTTP with fetch, the player and lobby WebSockets with
 * ws), used by the demo bots, the integration tests and the e2e bench. It speaks only the
 * wire types of @shogi/protocol.
 */
import type {
  AcceptedResponse,
  ChallengeView,
  ClientMessage,
  CreateChallengeBody,
  CreateGameBody,
  CreatePlayerResponse,
  ErrorBody,
  EventsResponse,
  GameView,
  ServerMessage,
  SubmitMoveBody,
} from '@shogi/protocol';
import WebSocket from 'ws';
import { LobbySocket } from './lobby-socket.js';

export type Answer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: ErrorBody };

export interface ApiClientOptions {
  /** a token with the admin scope (`npm run admin:token`), for `createGame` */
  readonly adminToken?: string;
}

export type GameTerms = Omit<CreateChallengeBody, 'opponent' | 'color'>;

export class ApiClient {
  readonly baseUrl: string;
  private readonly adminToken: string | undefined;

  constructor(baseUrl: string, options: ApiClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.adminToken = options.adminToken;
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    const parsed: unknown = text === '' ? {} : JSON.parse(text);
    return res.ok
      ? { ok: true, status: res.status, body: parsed as T }
      : { ok: false, status: res.status, body: parsed as ErrorBody };
  }

  async createPlayer(name: string): Promise<CreatePlayerResponse> {
    return must(await this.request<CreatePlayerResponse>('POST', '/api/players', { name }));
  }

  /** An operator's game (POST /api/games, admin scope): players start theirs with `startGame`. */
  async createGame(body: CreateGameBody): Promise<GameView> {
    if (this.adminToken === undefined) throw new Error('createGame needs an admin token (ApiClient options)');
    return must(await this.request<GameView>('POST', '/api/games', body, bearer(this.adminToken)));
  }

  challenge(token: string, body: CreateChallengeBody): Promise<Answer<ChallengeView>> {
    return this.request<ChallengeView>('POST', '/api/challenges', body, bearer(token));
  }

  acceptChallenge(token: string, id: string): Promise<Answer<ChallengeView>> {
    return this.request<ChallengeView>('POST', `/api/challenges/${id}/accept`, undefined, bearer(token));
  }

  /**
   * A game both players agreed to, as players start one: `sente` challenges `gote` (asking
   * for sente), `gote` accepts. Unlimited and casual unless the terms say otherwise.
   */
  async startGame(
    sente: { readonly token: string },
    gote: { readonly id: string; readonly token: string },
    terms: Partial<GameTerms> = {},
  ): Promise<GameView> {
    const offer = must(
      await this.challenge(sente.token, {
        timeControl: { kind: 'unlimited' },
        rated: false,
        ...terms,
        opponent: gote.id,
        color: 'sente',
      }),
    );
    const accepted = must(await this.acceptChallenge(gote.token, offer.id));
    if (accepted.gameId === null) throw new Error(`challenge ${offer.id} accepted without a game`);
    return this.game(accepted.gameId);
  }

  async game(id: string): Promise<GameView> {
    return must(await this.request<GameView>('GET', `/api/games/${id}`));
  }

  async events(id: string, after = 0): Promise<EventsResponse> {
    return must(await this.request<EventsResponse>('GET', `/api/games/${id}/events?after=${after}`));
  }

  submitMove(
    id: string,
    token: string,
    body: SubmitMoveBody,
    idempotencyKey?: string,
  ): Promise<Answer<AcceptedResponse>> {
    const headers: Record<string, string> = bearer(token);
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    return this.request<AcceptedResponse>('POST', `/api/games/${id}/moves`, body, headers);
  }

  resign(id: string, token: string): Promise<Answer<AcceptedResponse>> {
    return this.request<AcceptedResponse>('POST', `/api/games/${id}/resign`, {}, bearer(token));
  }

  /** Opens the player's lobby WebSocket (the token in its Authorization header); resolves once it is open. */
  lobbySocket(token: string): Promise<LobbySocket> {
    return LobbySocket.open(this.baseUrl, token);
  }

  /** Opens the player WebSocket (the token in its Authorization header); resolves once it is open. */
  playerSocket(id: string, token: string, after?: number, options: PlayerSocketOptions = {}): Promise<PlayerSocket> {
    const url = new URL(`${this.baseUrl.replace(/^http/, 'ws')}/api/games/${id}/ws`);
    if (after !== undefined) url.searchParams.set('after', String(after));
    return PlayerSocket.open(url.toString(), { ...options, headers: bearer(token) });
  }
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

function must<T>(answer: Answer<T>): T {
  if (!answer.ok)
    throw Object.assign(new Error(`HTTP ${answer.status} ${answer.body.code}: ${answer.body.message}`), {
      status: answer.status,
      code: answer.body.code,
    });
  return answer.body;
}

export type MessageHandler = (message: ServerMessage) => void;

export interface PlayerSocketOptions {
  /**
   * How many of the latest messages `received` keeps (default: all, which tests read). A
   * load generator keeps a few: holding every message of hundreds of long games made each
   * of its young-generation GCs copy them, and it measured its own pauses as latency.
   */
  readonly keep?: number;
  /** sent with the upgrade (a client that can set headers authenticates with Authorization) */
  readonly headers?: Record<string, string>;
}

export class PlayerSocket {
  readonly ws: WebSocket;
  private readonly handlers = new Set<MessageHandler>();
  /** the messages received, in order: every one, or the last `keep` */
  readonly received: ServerMessage[] = [];
  closeCode: number | null = null;

  private constructor(ws: WebSocket, keep: number) {
    this.ws = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      if (this.received.length > keep) this.received.shift();
      for (const h of this.handlers) h(message);
    });
    ws.on('close', (code) => {
      this.closeCode = code;
    });
  }

  static open(url: string, options: PlayerSocketOptions = {}): Promise<PlayerSocket> {
    const keep = options.keep ?? Number.POSITIVE_INFINITY;
    if (!(keep >= 0)) throw new RangeError(`keep must be a number >= 0, got ${keep}`);
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options.headers === undefined ? {} : { headers: options.headers });
      const socket = new PlayerSocket(ws, keep);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`WebSocket upgrade refused: HTTP ${res.statusCode}`)),
      );
    });
  }

  /**
   * Calls `handler` for every future message; with `replay`, first for those already
   * received (frames that came in the same packet as the upgrade arrive before any
   * caller could listen).
   */
  onMessage(handler: MessageHandler, options: { replay?: boolean } = {}): () => void {
    if (options.replay) for (const m of this.received) handler(m);
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  send(message: ClientMessage): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Resolves with the first message (already received or future) that matches. */
  waitFor<M extends ServerMessage>(match: (m: ServerMessage) => m is M, timeoutMs?: number): Promise<M>;
  waitFor(match: (m: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  waitFor(match: (m: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error('timed out waiting for a WebSocket message'));
      }, timeoutMs);
      const off = this.onMessage((m) => {
        if (!match(m)) return;
        clearTimeout(timer);
        off();
        resolve(m);
      });
    });
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }
}
