/**
 * Live games, like lichess TV's mini boards: a featured list of ongoing games (the most
 * recently active, from the `games` projection) with their latest positions and spectator
 * counts, and a feed that pushes their changes to subscribed sockets. Changes are coalesced
 * per game and flushed on a timer as one frame, serialized once for every feed socket.
 */

import { sideOfSfen } from '@shogi/game';
import type { LiveGame, LiveRating, LiveUpdate, WireEvent } from '@shogi/protocol';
import { type BotTitles, NO_BOT_TITLES, titled } from './bot-titles.js';

/** A row of the games projection, as much as the list needs. */
export interface LiveRow {
  readonly id: string;
  readonly sente_id: string;
  readonly sente_name: string;
  readonly gote_id: string;
  readonly gote_name: string;
  readonly sfen: string;
  readonly ply: number;
  readonly status: 'ongoing' | 'ended';
}

export interface LiveGamesDeps {
  /**
   * ongoing games with an event since `since`, most recently updated first: a game nobody
   * moves in (a player walked away from a bot) leaves the list, as lishogi's TV keeps only
   * games with a move in the last two minutes
   */
  ongoing(limit: number, since: Date): Promise<LiveRow[]>;
  /** how long an ongoing game stays listed after its latest event, ms (LIVE_FRESH_SECONDS) */
  readonly freshMs: number;
  /** the players' main ratings (none for a player without rated games) */
  ratings?(ids: readonly string[]): Promise<ReadonlyMap<string, LiveRating>>;
  /** spectators of a game on this gateway */
  spectators(gameId: string): number;
  /** the BOT titles of the players (none when absent) */
  readonly titles?: BotTitles;
  /**
   * Told the featured games after each refresh: on a Redis Cluster, which has no sharded
   * pattern subscription, the feed subscribes to just their channels.
   */
  readonly featuredChanged?: (gameIds: readonly string[]) => void;
}

export interface FeedSocket {
  send(frame: Buffer): void;
}

export const LIVE_LIMIT = 50;

export class LiveGames {
  private readonly deps: LiveGamesDeps;
  /** the featured games, by id, as last sent */
  private featured = new Map<string, LiveGame>();
  private readonly pending = new Map<string, LiveUpdate>();
  private readonly lastMoves = new Map<string, string>();
  readonly feeds = new Set<FeedSocket>();
  private liveFrame: Buffer | null = null;

  constructor(deps: LiveGamesDeps) {
    this.deps = deps;
  }

  /** The live list: from the projection, with the moves and counts this gateway knows. */
  async list(limit = LIVE_LIMIT): Promise<LiveGame[]> {
    const rows = await this.deps.ongoing(limit, new Date(Date.now() - this.deps.freshMs));
    const ids = rows.flatMap((r) => [r.sente_id, r.gote_id]);
    const [bots, ratings] = await Promise.all([
      (this.deps.titles ?? NO_BOT_TITLES).bots(ids),
      this.deps.ratings?.(ids) ?? null,
    ]);
    const rated = (id: string): LiveRating | null => {
      const r = ratings?.get(id);
      return r ? { rating: r.rating, provisional: r.provisional } : null;
    };
    return rows.map((r) => ({
      id: r.id,
      players: {
        sente: titled({ id: r.sente_id, name: r.sente_name }, bots),
        gote: titled({ id: r.gote_id, name: r.gote_name }, bots),
      },
      sfen: r.sfen,
      ply: r.ply,
      sideToMove: sideOfSfen(r.sfen),
      lastMove: this.lastMoves.get(r.id) ?? null,
      status: r.status,
      spectators: this.deps.spectators(r.id),
      ...(ratings === null ? {} : { ratings: { sente: rated(r.sente_id), gote: rated(r.gote_id) } }),
    }));
  }

  /** Re-reads the featured list; returns true when its membership changed. */
  async refresh(): Promise<boolean> {
    const games = await this.list(LIVE_LIMIT);
    const changed = games.length !== this.featured.size || games.some((g) => !this.featured.has(g.id));
    this.featured = new Map(games.map((g) => [g.id, g]));
    this.liveFrame = null;
    this.deps.featuredChanged?.([...this.featured.keys()]);
    return changed;
  }

  /** The `live` frame of the featured list (built once until the list changes). */
  frame(): Buffer {
    this.liveFrame ??= Buffer.from(JSON.stringify({ type: 'live', games: [...this.featured.values()] }));
    return this.liveFrame;
  }

  /** Events of any game (from the live feed's subscription): positions, takebacks and ends of featured games. */
  observe(gameId: string, events: readonly WireEvent[]): void {
    for (const e of events) {
      if (e.type === 'MoveAccepted') {
        const usi = String(e.payload.usi);
        if (this.lastMoves.size > 10_000) this.lastMoves.clear();
        this.lastMoves.set(gameId, usi);
        if (!this.featured.has(gameId)) continue;
        const sfen = String(e.payload.sfen);
        this.patch(gameId, { sfen, ply: Number(e.payload.ply), lastMove: usi });
      } else if (e.type === 'TakebackAccepted') {
        // the position goes back; the move before it is not in the event, so no last move is marked
        this.lastMoves.delete(gameId);
        if (this.featured.has(gameId))
          this.patch(gameId, { sfen: String(e.payload.sfen), ply: Number(e.payload.ply), lastMove: null });
      } else if (e.type === 'GameEnded') {
        this.lastMoves.delete(gameId);
        if (this.featured.has(gameId)) this.patch(gameId, { status: 'ended' });
      }
    }
  }

  /** Picks up the spectator counts of the featured games that changed on this gateway. */
  syncSpectators(): void {
    for (const [id, game] of this.featured) {
      const count = this.deps.spectators(id);
      if (game.spectators !== count) this.patch(id, { spectators: count });
    }
  }

  private patch(gameId: string, change: Omit<LiveUpdate, 'id'>): void {
    const game = this.featured.get(gameId);
    if (game) {
      const next = { ...game, ...change };
      this.featured.set(gameId, next);
      this.liveFrame = null;
    }
    this.pending.set(gameId, { ...(this.pending.get(gameId) ?? { id: gameId }), ...change });
  }

  /** Sends the coalesced changes since the last flush to every feed socket. */
  flush(): void {
    if (this.pending.size === 0) return;
    const updates = [...this.pending.values()];
    this.pending.clear();
    if (this.feeds.size === 0) return;
    const frame = Buffer.from(JSON.stringify({ type: 'updates', updates }));
    for (const feed of this.feeds) feed.send(frame);
  }

  /** Sends the whole list again (its membership changed). */
  broadcastList(): void {
    const frame = this.frame();
    for (const feed of this.feeds) feed.send(frame);
  }
}
