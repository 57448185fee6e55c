/**
 * A scripted player that plays one game through the public API: it follows the game on
 * its player WebSocket and, on its turn, sends a move chosen by brain.ts (or by `decide`:
 * the house bots' engine), over HTTP (`via: 'http'`) or over the WebSocket (`via: 'ws'`).
 */
import type { GameView, ServerMessage, Side } from '@shogi/protocol';
import { PositionHistory, parseSfen, type Ruleset, sideOfSfen } from '@shogi/rules';
import { type ApiClient, bearer, type PlayerSocket } from '../client.js';
import { chooseMove, type Random } from './brain.js';

export interface BotPlayer {
  readonly name: string;
  readonly id: string;
  readonly token: string;
}

export interface GameEnd {
  readonly winner: Side | null;
  readonly reason: string;
  readonly moves: number;
}

/** What a bot does on its turn; a move is still judged by the server like anyone's. */
export type Decision =
  | { readonly kind: 'move'; readonly usi: string }
  | { readonly kind: 'resign' }
  | { readonly kind: 'impasse' };

/** The bot's answer to the game's moves so far, or null when the game is over. */
export type Decide = (moves: readonly string[]) => Promise<Decision | null>;

export interface BotOptions {
  readonly api: ApiClient;
  readonly player: BotPlayer;
  readonly via: 'http' | 'ws';
  readonly random: Random;
  /** pause before each move, so a person can follow the game */
  readonly moveDelayMs: number;
  /** resign when the game reaches this many moves */
  readonly maxMoves: number;
  readonly onError?: (message: string) => void;
  /** how the bot chooses (default: brain.ts's random mover) */
  readonly decide?: Decide;
  /** how long a refused move waits before the bot tries again (default RETRY_MS) */
  readonly retryMs?: number;
  /**
   * Stops playing (the socket closed, nothing resigned): the game ends for this bot with
   * reason `stopped`, and another player of its side may take it up.
   */
  readonly signal?: AbortSignal;
}

export function replay(initialSfen: string, ruleset: Ruleset, moves: readonly string[]): PositionHistory {
  const parsed = parseSfen(initialSfen);
  if (!parsed.ok) throw new Error(`bad SFEN ${initialSfen}`);
  const game = new PositionHistory(parsed.value, ruleset);
  for (const usi of moves) game.playUsi(usi);
  return game;
}

function randomDecision(game: PositionHistory, random: Random): Decision | null {
  const usi = chooseMove(game, random);
  return usi === null ? null : { kind: 'move', usi };
}

/** How long a refused move waits before the bot tries again (the move limit's window is a second). */
const RETRY_MS = 500;

/** Refusals (rate limits apart) and rejected moves after which the bot resigns instead of trying on. */
const MAX_REFUSALS = 20;

/** Plays the game to its end; resolves with how it ended. */
export async function playAsBot(view: GameView, options: BotOptions): Promise<GameEnd> {
  const { api, player } = options;
  const socket: PlayerSocket = await api.playerSocket(view.id, player.token);
  const moves: string[] = [];
  let side: Side | null = null;
  let waiting = false;
  let rejections = 0;
  let timer: NodeJS.Timeout | undefined;
  // the ply of the move sent and not yet judged: only its verdict lets the bot move again
  let pendingPly: number | null = null;

  return new Promise<GameEnd>((resolve, reject) => {
    let finished = false;
    const finish = (end: GameEnd) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      off();
      options.signal?.removeEventListener('abort', stop);
      socket.close().then(() => resolve(end), reject);
    };
    const stop = () => finish({ winner: null, reason: 'stopped', moves: moves.length });
    if (options.signal?.aborted) {
      // nothing is listening yet; the socket opened above is closed at once
      socket.close().then(() => resolve({ winner: null, reason: 'stopped', moves: 0 }), reject);
      return;
    }
    options.signal?.addEventListener('abort', stop, { once: true });
    const sideToMove = (): Side => {
      const first: Side = sideOfSfen(view.initialSfen);
      return moves.length % 2 === 0 ? first : first === 'sente' ? 'gote' : 'sente';
    };
    // a refused or failed move brings no message to wake the bot (its opponent waits for
    // it), and at once it may be refused again (a rate limit): it tries again after a pause.
    // A rate limit says "later", not "wrong": it does not count toward resigning, or a long
    // game against an instant opponent would end in a resignation nobody chose
    const refused = (why: string, code?: string) => {
      waiting = false;
      pendingPly = null;
      if (code !== 'RATE_LIMITED') rejections++;
      options.onError?.(why);
      setTimeout(() => {
        if (!finished) maybeMove();
      }, options.retryMs ?? RETRY_MS).unref();
    };
    const maybeMove = () => {
      if (waiting || side === null || sideToMove() !== side) return;
      waiting = true;
      timer = setTimeout(() => {
        move().catch((err: unknown) => refused(String(err)));
      }, options.moveDelayMs);
    };
    const move = async () => {
      if (finished) return;
      const ply = moves.length;
      if (ply >= options.maxMoves || rejections > MAX_REFUSALS) {
        await api.resign(view.id, player.token);
        return;
      }
      const decision = options.decide
        ? await options.decide([...moves])
        : randomDecision(replay(view.initialSfen, view.ruleset, moves), options.random);
      // stopped while deciding: the game is another player's to go on with
      if (finished) return;
      if (decision === null) return; // the game is over; GameEnded is on its way
      if (decision.kind === 'resign') {
        await api.resign(view.id, player.token);
        return;
      }
      if (decision.kind === 'impasse') {
        await api.request('POST', `/api/games/${view.id}/impasse`, {}, bearer(player.token));
        return;
      }
      const usi = decision.usi;
      pendingPly = ply;
      if (options.via === 'ws') {
        socket.send({ type: 'move', usi, ply });
        return;
      }
      const answer = await api.submitMove(view.id, player.token, { usi, ply });
      if (!answer.ok) refused(`${usi} at ply ${ply}: ${answer.body.code}`, answer.body.code);
    };
    const off = socket.onMessage(
      (m: ServerMessage) => {
        switch (m.type) {
          case 'hello':
            side = m.side;
            break;
          case 'events':
            for (const e of m.events) {
              if (e.type === 'MoveAccepted') {
                moves.push(String(e.payload.usi));
              } else if (e.type === 'GameEnded') {
                const p = e.payload as { winner: Side | null; reason: string };
                finish({ winner: p.winner, reason: p.reason, moves: moves.length });
                return;
              }
            }
            break;
          case 'verdict':
            // a verdict on another move of this player's (one sent before this bot took the
            // game up, from another process) says nothing about this bot's own
            if (m.ply !== pendingPly) break;
            pendingPly = null;
            waiting = false;
            if (!m.accepted) {
              rejections++;
              options.onError?.(`${m.usi} rejected: ${m.reason ?? '?'}`);
            }
            break;
          case 'error':
            refused(`${m.error.code}: ${m.error.detail ?? m.error.message}`, m.error.code);
            return;
          case 'ack':
            break;
        }
        maybeMove();
      },
      { replay: true },
    );
  });
}
