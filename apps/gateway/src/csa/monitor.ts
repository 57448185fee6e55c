/**
 * %%MONITOR2ON: an x1 client follows a game, as shogi-server's monitors do. First the game's
 * record so far (CSA format), then each move and its time, then the ending's first line (the
 * special move or the reason), each block ended by `+OK`, every line tagged
 * `##[MONITOR2][<game id>]`. It follows the game as the players' sessions do, on the hub with
 * a Feed, so any game of the server can be monitored, whichever gateway its players are on.
 */
import { type GameEvent, type RecordedEvent, recordOfEvents } from '@shogi/game';
import type { WireEvent } from '@shogi/protocol';
import { exportCsa } from '@shogi/rules';
import type { FastifyBaseLogger } from 'fastify';
import { type FollowDeps, type Following, followGame } from './game-follower.js';
import { newPlayView, type PlayView, playLines } from './play-lines.js';
import { monitorLines } from './x1-lines.js';

export interface MonitorDeps extends FollowDeps {
  readonly log: FastifyBaseLogger;
}

const recorded = (gameId: string, e: WireEvent): RecordedEvent =>
  ({
    type: e.type,
    data: e.payload,
    seq: e.seq,
    recordedAt: e.recordedAt,
    gameId,
    globalPosition: 0,
  }) as unknown as RecordedEvent<GameEvent>;

/** A player's lines of a move or an ending, as a monitor shows them: `+7776FU`, `T3`; the ending's first line. */
function monitored(lines: readonly string[], ended: boolean): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const echo = /^([+-]\d{4}[A-Z]{2}),(T\d+)$/.exec(line);
    if (echo !== null) out.push(echo[1] as string, echo[2] as string);
  }
  const ending = ended ? lines.find((l) => !/^[+-]\d{4}/.test(l)) : undefined;
  if (ending !== undefined) out.push(ending);
  return out;
}

export class Monitor {
  private following: Following | null = null;
  private closed = false;
  readonly gameId: string;
  private readonly write: (lines: readonly string[]) => void;

  private constructor(gameId: string, write: (lines: readonly string[]) => void) {
    this.gameId = gameId;
    this.write = write;
  }

  /** Starts monitoring; null when there is no such game. */
  static async open(
    deps: MonitorDeps,
    gameId: string,
    write: (lines: readonly string[]) => void,
  ): Promise<Monitor | null> {
    const events = await deps.games.eventsAfter(gameId, 0).catch(() => null);
    const created = events?.[0];
    if (events === null || created === undefined || created.type !== 'GameCreated') return null;
    const monitor = new Monitor(gameId, write);
    const record = recordOfEvents(events.map((e) => recorded(gameId, e)));
    const text = record === null ? null : exportCsa(record, { version: '2.2' });
    if (text === null || !text.ok) return null;
    write(
      monitorLines(
        gameId,
        text.value.split('\n').filter((l) => l !== ''),
      ),
    );
    const p = created.payload as { initialSfen: string; createdAt: string };
    const view = newPlayView({ gameId, initialSfen: p.initialSfen, createdAt: p.createdAt }, 'sente');
    playLines(view, events.slice(1));
    if (!view.ended) monitor.follow(deps, view, (events.at(-1) as WireEvent).seq);
    return monitor;
  }

  private follow(deps: MonitorDeps, view: PlayView, afterSeq: number): void {
    this.following = followGame(
      deps,
      this.gameId,
      afterSeq,
      (events) => {
        const lines = monitored(playLines(view, events), view.ended);
        if (lines.length > 0) this.write(monitorLines(this.gameId, lines));
        if (view.ended) this.close();
      },
      (err) => {
        deps.log.warn({ err, gameId: this.gameId }, 'csa: monitor lost its game');
        this.close();
      },
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.following?.close();
  }
}
