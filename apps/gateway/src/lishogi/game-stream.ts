/**
 * A player's game stream (lishogi's `/api/{bot,board}/game/stream/{id}`): `gameFull` first,
 * then a `gameState` a move or ending and the game's `chatLine`s, until the final state ends
 * it. It follows the game as the player socket does, on the hub with a Feed (gaps and repeats
 * repaired from the log), and is no spectator: it joins no spectators' room, so it is never
 * counted as one. A client that leaves, or reconnects, gets its old stream ended and cleaned up.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Feed } from '../domain/feed.js';
import type { GameDetails } from '../domain/game-service.js';
import { clockNow, snapshotOfView } from '../domain/game-snapshot.js';
import { cardsOf } from './cards.js';
import { chatLineOf, gameFullOf } from './game-shapes.js';
import { type NdjsonStream, openNdjson } from './ndjson.js';
import { bareCard, type LishogiPlayer, lishogiPlayer } from './shapes.js';
import { stateLines } from './state-lines.js';

/** The game's players as lishogi shows them: usernames, ratings in the game's speed, titles. */
export async function lishogiPlayers(
  app: FastifyInstance,
  view: GameDetails['view'],
): Promise<{ sente: LishogiPlayer; gote: LishogiPlayer }> {
  const { sente, gote } = view.players;
  const cards = await cardsOf(app.databases.games, [sente.id, gote.id], view.timeControl);
  const shown = (ref: { id: string; name: string }) => lishogiPlayer(cards.get(ref.id) ?? bareCard(ref));
  return { sente: shown(sente), gote: shown(gote) };
}

export interface GameStreamLog {
  warn(obj: object, msg: string): void;
}

/**
 * Takes the reply over and streams the game: the first line at once (never a keep-alive
 * first), from `details` as read; the events after it come from the hub, and from the log for
 * what was published before the subscription.
 */
export function streamGame(
  app: FastifyInstance,
  reply: FastifyReply,
  details: GameDetails,
  players: { sente: LishogiPlayer; gote: LishogiPlayer },
  log: GameStreamLog,
): NdjsonStream {
  const gameId = details.view.id;
  const stream = openNdjson(reply, { registry: app.lishogiStreams });
  const snapshot = snapshotOfView(details.view);
  stream.line(gameFullOf(snapshot, Date.parse(details.createdAt), players, clockNow(snapshot)));
  if (snapshot.status === 'ended') {
    stream.end();
    return stream;
  }
  const feed = new Feed(snapshot.seq, {
    readAfter: (seq) => app.games.eventsAfter(gameId, seq),
    send: (events) => {
      const { lines, ended } = stateLines(snapshot, events, Date.now());
      for (const line of lines) stream.line(line);
      if (ended) stream.end();
    },
    onError: (err) => {
      // the client reconnects and gets the game afresh
      log.warn({ err, gameId }, 'lishogi stream: catch-up read failed');
      stream.end();
    },
  });
  const leaves: (() => void)[] = [];
  stream.onClose(() => {
    feed.close();
    for (const leave of leaves.splice(0)) leave();
  });
  const joined = (leave: () => void) => {
    if (stream.closed) leave();
    else leaves.push(leave);
  };
  const failed = (what: string) => (err: unknown) => {
    log.warn({ err, gameId }, `lishogi stream: ${what} join failed`);
    stream.end();
  };
  app.hub
    .join(
      gameId,
      (published) => {
        const events = [];
        for (const item of published) {
          const event = app.games.toWire(item);
          if (event !== null) events.push(event);
        }
        feed.push(events);
      },
      // Redis came back: what was published meanwhile is only in the log
      () => feed.catchUp(),
    )
    .then((leave) => {
      joined(leave);
      // what was published between the read of the game and the subscription
      feed.catchUp();
    }, failed('hub'));
  app.gameChat.join(gameId, (line) => stream.line(chatLineOf(line))).then(joined, failed('chat'));
  return stream;
}
