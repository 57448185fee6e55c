/**
 * Scripted people playing house-bot games through the public API, one guest per game (the
 * lobby allows one real-time game a person; these are unlimited, but a guest of its own per
 * game keeps each game's moves under its own token). Each plays sente, answers every bot
 * move at once with a random legal move (the demo brain) over its player WebSocket, and
 * starts a new game when one ends. For each of its moves it records the reply time: from
 * the move's accepted verdict on its socket, and from the move's sending, to the bot's
 * MoveAccepted arriving on the same socket.
 */
import type { GameView, ServerMessage } from '@shogi/protocol';
import { sideOfSfen } from '@shogi/rules';
import { type ApiClient, bearer, type PlayerSocket } from '../../apps/server/src/client.js';
import { replay } from '../../apps/server/src/demo/bot.js';
import { chooseMove, type Random } from '../../apps/server/src/demo/brain.js';

export interface BotGamesOptions {
  readonly api: ApiClient;
  /** the house bot, e.g. engine-1 */
  readonly botId: string;
  readonly games: number;
  readonly random: Random;
  /** a bot reply slower than this ends the game as stalled (counted) and the slot starts another */
  readonly stallMs: number;
  /** told of each unexpected answer, for the bench's log */
  readonly onProblem: (message: string) => void;
}

/** One bot reply, as the person saw it (performance.now() ms). */
export interface Reply {
  /** the bot's MoveAccepted on the person's socket */
  readonly seenAt: number;
  /** from the person's move's accepted verdict (NaN when the verdict came after the reply) */
  readonly afterVerdictMs: number;
  /** from the person's move being sent */
  readonly afterSendMs: number;
}

/** How the games ended, by GameEnded reason (or the bench's own: stalled, error, stopped). */
export type Endings = Map<string, number>;

const count = (m: Endings, key: string) => m.set(key, (m.get(key) ?? 0) + 1);

/** `checkmate, bot won`: the reason with the winner as the person sees it. */
function endingOf(payload: Record<string, unknown>, side: string | null): string {
  const winner = payload.winner === null ? 'draw' : payload.winner === side ? 'person won' : 'bot won';
  return `${String(payload.reason)}, ${winner}`;
}

export class BotGames {
  readonly replies: Reply[] = [];
  readonly endings: Endings = new Map();
  gamesStarted = 0;
  #stopping = false;
  #loops: Promise<void>[] = [];
  /** each slot's way to end its game in progress */
  readonly #resigners = new Set<() => void>();

  private readonly options: BotGamesOptions;

  constructor(options: BotGamesOptions) {
    this.options = options;
  }

  /** Makes the guests, then starts every slot's first game; resolves once all have started. */
  async start(): Promise<void> {
    const { api, games } = this.options;
    const players = await Promise.all(
      Array.from({ length: games }, (_, i) => api.createPlayer(`bench-human-${i}-${Date.now() % 100_000}`)),
    );
    const started: Promise<void>[] = [];
    this.#loops = players.map((p) => {
      let first: () => void = () => {};
      started.push(new Promise<void>((r) => (first = r)));
      return this.#slot(p.token, first);
    });
    await Promise.all(started);
  }

  /** The replies seen between `from` and `to` (performance.now() ms). */
  between(from: number, to: number): Reply[] {
    return this.replies.filter((r) => r.seenAt >= from && r.seenAt < to);
  }

  /** Resigns every game in progress and waits for the slots to end. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const resign of this.#resigners) resign();
    await Promise.all(this.#loops);
  }

  async #slot(token: string, started: () => void): Promise<void> {
    while (!this.#stopping) {
      const answer = await this.options.api.request<GameView>(
        'POST',
        `/api/bots/${this.options.botId}/games`,
        { side: 'sente' },
        bearer(token),
      );
      if (!answer.ok) {
        this.options.onProblem(`bot game refused: HTTP ${answer.status} ${answer.body.code}: ${answer.body.message}`);
        count(this.endings, `not started (${answer.body.code})`);
        started();
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      this.gamesStarted++;
      started();
      count(this.endings, await this.#play(answer.body, token));
    }
  }

  /** Plays one game to its end; resolves with how it ended. */
  async #play(view: GameView, token: string): Promise<string> {
    const { api, random, stallMs, onProblem } = this.options;
    // a few kept for the replay below: the hello can come in the upgrade's packet, before any handler
    const socket: PlayerSocket = await api.playerSocket(view.id, token, undefined, { keep: 8 });
    const first = sideOfSfen(view.initialSfen);
    const moves: string[] = [];
    let side: string | null = null;
    let sentAt = 0;
    let verdictAt = Number.NaN;
    let awaited = -1;
    /** a move of ours sent and not yet accepted: every frame until then must not send another */
    let pending = false;
    let stall: NodeJS.Timeout | undefined;
    let resign = () => {};
    const ending = await new Promise<string>((resolve) => {
      let done = false;
      const finish = (reason: string, resignFirst: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(stall);
        if (resignFirst) api.resign(view.id, token).catch(() => {});
        resolve(reason);
      };
      resign = () => finish('stopped', true);
      this.#resigners.add(resign);
      const ourTurn = () =>
        !pending && side === (moves.length % 2 === 0 ? first : first === 'sente' ? 'gote' : 'sente');
      const move = () => {
        if (this.#stopping) return finish('stopped', true);
        const usi = chooseMove(replay(view.initialSfen, view.ruleset, moves), random);
        if (usi === null) return; // the game is over: GameEnded is on its way
        sentAt = performance.now();
        verdictAt = Number.NaN;
        // the MoveAccepted ply of the bot's reply: after this move and the reply
        awaited = moves.length + 2;
        pending = true;
        socket.send({ type: 'move', usi, ply: moves.length });
        clearTimeout(stall);
        stall = setTimeout(() => finish('stalled', true), stallMs);
      };
      socket.onMessage(
        (m: ServerMessage) => {
          switch (m.type) {
            case 'hello':
              side = m.side;
              if (ourTurn()) move();
              return;
            case 'verdict':
              if (m.accepted) verdictAt = performance.now();
              else {
                onProblem(`game ${view.id}: the person's ${m.usi} was rejected (${m.reason ?? '?'})`);
                finish('rejected', true);
              }
              return;
            case 'events':
              for (const e of m.events) {
                if (e.type === 'GameEnded') return finish(endingOf(e.payload, side), false);
                if (e.type !== 'MoveAccepted') continue;
                moves.push(String(e.payload.usi));
                if (e.payload.ply === awaited - 1) pending = false;
                if (e.payload.ply === awaited) {
                  const now = performance.now();
                  this.replies.push({ seenAt: now, afterVerdictMs: now - verdictAt, afterSendMs: now - sentAt });
                }
              }
              if (ourTurn()) move();
              return;
            case 'error':
              onProblem(`game ${view.id}: ${m.error.code}: ${m.error.detail ?? m.error.message}`);
              return finish('error', true);
            case 'ack':
              return;
          }
        },
        { replay: true },
      );
    });
    this.#resigners.delete(resign);
    await socket.close();
    return ending;
  }
}
