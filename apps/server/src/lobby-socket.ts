/**
 * The player's lobby WebSocket (`GET /api/lobby/ws`), as a script follows it: read-only, it
 * tells the player of pairings, challenges, rematch offers and answers. Notifications are best
 * effort, so whoever relies on one also reads the lobby over HTTP once the socket says hello.
 */
import type { LobbyMessage } from '@shogi/protocol';
import WebSocket from 'ws';

export type LobbyHandler = (message: LobbyMessage) => void;

export class LobbySocket {
  private readonly ws: WebSocket;
  private readonly handlers = new Set<LobbyHandler>();
  /** resolves once the socket has closed, by either side (a restart, a missed ping, close()) */
  readonly closed: Promise<void>;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as LobbyMessage;
      for (const h of this.handlers) h(message);
    });
    // a socket error is followed by its close, which is what callers wait for
    ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
  }

  /**
   * Opens the socket with the token in its Authorization header; resolves once it is open.
   * `followSeeks`: sent the open seeks too, as a lobby page is (and counted as looking at the lobby).
   */
  static open(baseUrl: string, token: string, followSeeks = false): Promise<LobbySocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/api/lobby/ws${followSeeks ? '?follow=seeks' : ''}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      const socket = new LobbySocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`WebSocket upgrade refused: HTTP ${res.statusCode}`)),
      );
    });
  }

  /** Calls `handler` for every message from now on; the returned function stops it. */
  onMessage(handler: LobbyHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close(1000);
    return this.closed;
  }
}
