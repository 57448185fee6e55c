/**
 * The native path, the reference: pairs of guest players (as bench/e2e's), each game started
 * as players start one here (a challenge accepted) on the same clock as the lishogi games, and
 * played over the two player WebSockets: a `move` frame as soon as the socket shows the
 * player's turn, timed to the opponent's socket showing the MoveAccepted.
 */
import type { ServerMessage } from '@shogi/protocol';
import type { ApiClient, PlayerSocket } from '../../apps/server/src/client.js';
import { ScriptedGame, type Side, type Transport } from './scripted-game.js';
import type { SlotContext } from './slot.js';

export interface NativePair {
  readonly a: { readonly id: string; readonly token: string };
  readonly b: { readonly id: string; readonly token: string };
}

export async function nativePairs(api: ApiClient, count: number): Promise<NativePair[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      a: await api.createPlayer(`native-${i}-a`),
      b: await api.createPlayer(`native-${i}-b`),
    })),
  );
}

/** The lishogi games' clock (lishogi-load.ts LISHOGI_CLOCK) in this server's terms. */
const CLOCK = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 10, periods: 1 } as const;

/** What one side's socket shows, passed to the game: each accepted move, and the ending. */
function follow(game: ScriptedGame, side: Side) {
  return (m: ServerMessage) => {
    if (m.type === 'events') {
      const events = m.events;
      const endAt = events.findIndex((e) => e.type === 'GameEnded');
      events.forEach((e, i) => {
        if (e.type === 'MoveAccepted') game.seen(side, e.payload.ply as number, endAt > i);
      });
      if (endAt >= 0) game.ended(side);
    } else if (m.type === 'verdict' && !m.accepted) {
      game.fail(`move rejected (${m.reason})`, `${m.usi} at ply ${m.ply}`);
    } else if (m.type === 'error' && m.error.code !== 'GAME_OVER') {
      // GAME_OVER answers a resignation sent as the game ended by other means
      game.fail(`error frame ${m.error.code}`, m.error.message);
    }
  };
}

async function playGame(
  ctx: SlotContext<ApiClient>,
  gameId: string,
  seats: readonly [NativePair['a'], NativePair['b']],
  script: readonly string[],
) {
  const sockets: PlayerSocket[] = [];
  const transport: Transport = {
    move: (side, ply, usi) => sockets[side]?.send({ type: 'move', usi, ply }),
    resign: (side) => sockets[side]?.send({ type: 'resign' }),
    close: () => {
      for (const s of sockets) void s.close();
    },
  };
  const game = new ScriptedGame(script, ctx.phase, transport, ['native', 'native'], ctx.stallMs);
  try {
    const opened = await Promise.all(
      seats.map((p) => ctx.client.playerSocket(gameId, p.token, undefined, { keep: 0 })),
    );
    sockets.push(...opened);
  } catch (err) {
    game.fail('socket refused', String(err));
  }
  // nobody moves before both sockets listen: what came with the upgrade is the game's start
  for (const [side, socket] of sockets.entries()) socket.onMessage(follow(game, side as Side));
  game.start();
  await game.done;
}

/** Slot `index` plays games until the phase is over; sente alternates by slot as on the lishogi path. */
export async function nativeSlot(ctx: SlotContext<ApiClient>, pair: NativePair, index: number): Promise<void> {
  const seats = index % 2 === 0 ? ([pair.a, pair.b] as const) : ([pair.b, pair.a] as const);
  for (let g = 0; !ctx.phase.over; g++) {
    let gameId: string;
    try {
      gameId = (await ctx.client.startGame(seats[0], seats[1], { timeControl: CLOCK })).id;
    } catch (err) {
      ctx.phase.problem(`game start ${(err as { code?: string }).code ?? 'failed'}`, String(err));
      return;
    }
    ctx.phase.gamesStarted++;
    await playGame(ctx, gameId, seats, ctx.script(index, g));
  }
}
