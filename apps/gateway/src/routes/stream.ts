/**
 * `GET /api/games/:id/stream[?delay=N]`: the spectator feed as NDJSON over plain HTTP, for
 * clients without WebSockets (lichess's /api/stream/game convention). The first line is
 * `{"type":"snapshot","game":...}`, then one event per line in seq order; the response
 * ends after GameEnded. With `delay=N` the last N moves (and whatever followed them) are
 * held back until N more moves are played or the game ends: anti-cheating for broadcasts.
 * Each open stream takes one of its address's spectator connections (WATCH_MAX_PER_IP).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, GameParams, StreamQuery, type WireEvent } from '@shogi/protocol';
import { applyEvent, type SnapshotState, snapshotOfCreated } from '../domain/game-snapshot.js';
import type { Batch, Member } from '../domain/spectators.js';

/** Releases events only once `delay` later moves exist (or the game is over). */
export class DelayedView {
  private readonly delay: number;
  private readonly held: WireEvent[] = [];
  private heldMoves = 0;
  snapshot: SnapshotState | null = null;

  constructor(delay: number) {
    this.delay = delay;
  }

  /** Takes events in seq order; returns those now visible, folded into the snapshot. */
  push(events: readonly WireEvent[]): WireEvent[] {
    let ended = false;
    for (const e of events) {
      this.held.push(e);
      if (e.type === 'MoveAccepted') this.heldMoves++;
      if (e.type === 'GameEnded') ended = true;
    }
    const out: WireEvent[] = [];
    for (;;) {
      const front = this.held[0];
      if (front === undefined) break;
      // the game's creation reveals no move; after the end nothing is worth hiding
      if (!ended && front.type !== 'GameCreated' && this.heldMoves <= this.delay) break;
      this.held.shift();
      if (front.type === 'MoveAccepted') this.heldMoves--;
      if (this.snapshot === null) this.snapshot = snapshotOfCreated(front);
      else applyEvent(this.snapshot, front);
      out.push(front);
    }
    return out;
  }
}

/** how long a stream's connection may be silent before the peer is probed */
const PROBE_IDLE_MS = 60_000;

const stream: FastifyPluginAsyncTypebox = async (app) => {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get(
    '/api/games/:id/stream',
    {
      schema: {
        tags: ['spectating'],
        summary: 'NDJSON: a snapshot line, then one event per line until the game ends; ?delay=N holds back N moves',
        params: GameParams,
        querystring: StreamQuery,
        produces: ['application/x-ndjson'],
        response: { 400: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const gameId = request.params.id;
      const delay = Number(request.query.delay ?? 0);
      // a delayed snapshot is folded from GameCreated, which carries no BOT titles: the players
      // are taken from the view (an account in a game never changes its title)
      const players = delay > 0 ? (await app.games.view(gameId)).players : null;
      if (players === null && !app.spectators.rooms.has(gameId)) await app.games.view(gameId); // 404 before the first byte
      // counted with the address's spectator sockets (429 past WATCH_MAX_PER_IP) until it closes, whoever closes it
      const release = app.watchLimit.hold(request.ip);
      reply.hijack();
      const res = reply.raw;
      // a client gone while the game was read brought its 'close' before anyone listened
      if (res.req.socket.destroyed) {
        release();
        return;
      }
      res.once('close', release);
      // a quiet game's stream writes nothing for as long as nobody moves: TCP keep-alive probes
      // find a peer gone without a FIN (a dropped link, a NAT that forgot it), whose socket then
      // closes and gives the address its slot back (a socket that is no TCP socket, as an
      // injected request's, has no keep-alive to set)
      const socket = res.socket;
      if (typeof socket?.setKeepAlive === 'function') socket.setKeepAlive(true, PROBE_IDLE_MS);
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' });
      // HEAD (which Fastify routes here too) gets the headers only: a body that follows the
      // game would keep it open until the game ends
      if (request.method === 'HEAD') {
        res.end();
        return;
      }
      open.add(res);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        open.delete(res);
        app.spectators.leave(gameId, member);
        res.end();
      };
      const write = (data: Buffer | string, ended: boolean) => {
        if (done) return;
        // a reader that does not keep up is cut off rather than buffered without bound
        if (res.writableLength > app.config.watchMaxBuffered) return finish();
        res.write(data);
        if (ended) finish();
      };
      const endsWith = (events: readonly WireEvent[]) => events.some((e) => e.type === 'GameEnded');
      const view = delay > 0 ? new DelayedView(delay) : null;
      let snapshotSent = false;
      const member: Member = {
        write: (batch: Batch) => {
          if (view === null) return write(batch.ndjson(), endsWith(batch.events));
          const visible = view.push(batch.events);
          let text = '';
          if (!snapshotSent && view.snapshot !== null) {
            snapshotSent = true;
            text += `${JSON.stringify({ type: 'snapshot', game: { ...view.snapshot, ...(players === null ? {} : { players }), spectators: app.spectators.count(gameId) } })}\n`;
            // the snapshot already holds the visible events
          } else {
            for (const e of visible) text += `${JSON.stringify(e)}\n`;
          }
          if (text !== '') write(text, endsWith(visible));
        },
      };
      res.on('close', finish);
      try {
        await app.spectators.join(gameId, member, view === null ? {} : { since: 0 }, (room, count) => {
          if (view === null) write(`${room.snapshotFrame(count)}\n`, room.snapshot.status === 'ended');
        });
        if (done) app.spectators.leave(gameId, member);
      } catch (err) {
        request.log.error({ err, gameId }, 'stream: join failed');
        finish();
      }
    },
  );
};

export default stream;
