/**
 * The two loads the bench compares, the same scripted games each: K games over the CSA
 * protocol (two TCP connections a game, each move a line, timed to its echo on the mover's
 * connection), and K games over the native player WebSocket (each move a frame, timed to its
 * verdict on the mover's socket). A game slot plays game after game until the window ends.
 */
import { performance } from 'node:perf_hooks';
import type { ServerMessage } from '@shogi/protocol';
import type { ApiClient, PlayerSocket } from '../../apps/server/src/client.js';
import { LineSocket } from './lines.js';

export interface Window {
  /** performance.now() from which moves are counted */
  readonly from: number;
  readonly until: number;
}

export interface Tally {
  moves: number;
  games: number;
  errors: number;
  readonly latencies: number[];
}

export const newTally = (): Tally => ({ moves: 0, games: 0, errors: 0, latencies: [] });

const isResult = (line: string) => /^#(WIN|LOSE|DRAW|CENSORED|CHUDAN)$/.test(line);

/** One CSA game slot: log in, agree, play the script line by line, resign at its end; again until the window ends. */
export async function csaSlot(port: number, slot: number, script: readonly string[], window: Window, tally: Tally) {
  // a game name of the slot's own: its two clients are paired with each other
  const gameName = `bench${slot}-1800-0`;
  while (performance.now() < window.until) {
    const clients = await Promise.all([LineSocket.open(port), LineSocket.open(port)]);
    try {
      await Promise.all(clients.map((c, i) => c.send(`LOGIN b${slot}${i === 0 ? 'a' : 'b'} ${gameName}`)));
      const summaries = await Promise.all(clients.map((c) => c.readUntil((l) => l === 'END Game_Summary')));
      if (summaries.some((s) => s === null)) {
        tally.errors++;
        return;
      }
      const senteIndex = summaries[0]?.includes('Your_Turn:+') ? 0 : 1;
      const sente = clients[senteIndex] as LineSocket;
      const gote = clients[1 - senteIndex] as LineSocket;
      for (const c of clients) c.send('AGREE');
      const started = await Promise.all(clients.map((c) => c.next()));
      if (started.some((l) => l === null || !l.startsWith('START:'))) {
        tally.errors++;
        return;
      }
      tally.games++;
      let over = false;
      for (let ply = 0; ply < script.length && !over && performance.now() < window.until; ply++) {
        const [mover, other] = ply % 2 === 0 ? [sente, gote] : [gote, sente];
        const t0 = performance.now();
        mover.send(script[ply] as string);
        const echo = await mover.next();
        const t1 = performance.now();
        const seen = await other.next();
        if (echo === null || seen === null || !echo.includes(',T')) {
          // the game ended on the board (a repetition, the move limit) or the connection did
          over = true;
          if (echo === null || seen === null) tally.errors++;
          break;
        }
        if (t0 >= window.from && t1 <= window.until) {
          tally.moves++;
          tally.latencies.push(t1 - t0);
        }
      }
      if (!over) {
        const toMove = script.length % 2 === 0 ? sente : gote;
        toMove.send('%TORYO');
      }
      await Promise.all(clients.map((c) => c.readUntil(isResult)));
    } finally {
      for (const c of clients) c.close();
    }
  }
}

/** One native game slot: two guests, a challenge accepted, moves as player-socket frames. */
export async function wsSlot(api: ApiClient, slot: number, script: readonly string[], window: Window, tally: Tally) {
  const sente = await api.createPlayer(`w${slot}s`);
  const gote = await api.createPlayer(`w${slot}g`);
  while (performance.now() < window.until) {
    const game = await api.startGame(sente, gote);
    tally.games++;
    const sockets = await Promise.all(
      [sente, gote].map((p) => api.playerSocket(game.id, p.token, undefined, { keep: 0 })),
    );
    const verdicts = sockets.map((socket) => {
      let waiting: ((m: ServerMessage) => void) | null = null;
      socket.onMessage((m) => {
        if ((m.type === 'verdict' || m.type === 'error') && waiting !== null) {
          const w = waiting;
          waiting = null;
          w(m);
        }
      });
      return () => new Promise<ServerMessage>((resolve) => (waiting = resolve));
    });
    try {
      for (let ply = 0; ply < script.length && performance.now() < window.until; ply++) {
        const side = ply % 2;
        const verdict = (verdicts[side] as () => Promise<ServerMessage>)();
        const t0 = performance.now();
        (sockets[side] as PlayerSocket).send({ type: 'move', usi: script[ply] as string, ply });
        const m = await verdict;
        const t1 = performance.now();
        if (m.type !== 'verdict' || !m.accepted) {
          if (m.type !== 'verdict') tally.errors++;
          break;
        }
        if (t0 >= window.from && t1 <= window.until) {
          tally.moves++;
          tally.latencies.push(t1 - t0);
        }
      }
    } finally {
      await Promise.all(sockets.map((s) => s.close()));
    }
  }
}
