/**
 * The x1 mode's commands (shogi-server's extended mode), as far as they make sense here:
 * %%WHO (the CSA players connected to any gateway), %%LIST (the server's ongoing games, not
 * only CSA ones: every game is an ordinary game), %%SHOW and %%MONITOR2ON/OFF (any game, by
 * its id in the HTTP API), %%CHAT (to the x1 players not in a game), %%GAME and %%CHALLENGE
 * (look for a game by its name, with a side), %%VERSION and %%HELP. Buoys and %%RATING are
 * not served: positions are set up through the HTTP API, and ratings are read from it.
 */
import type { GameView } from '@shogi/protocol';
import { type CsaGameName, parseGameName } from './game-name.js';
import { type ClientLine, x1Error } from './lines.js';
import { Monitor, type MonitorDeps } from './monitor.js';
import { HELP_LINES, listLines, type Presence, showLines, versionLines, whoLines } from './x1-lines.js';

export interface X1Context {
  /** Shows the session in %%WHO, or takes it out (best effort). */
  presence(sessionId: string, presence: Presence | null): void;
  who(): Promise<Presence[]>;
  /** The ids of the server's ongoing games, most recently active first. */
  ongoingGames(): Promise<string[]>;
  /** The game's view; null when there is no such game. */
  view(gameId: string): Promise<GameView | null>;
  /** Sends a chat line to every gateway's x1 players; false when the sender's address is over its chat limit. */
  chat(from: string, text: string, ip: string): Promise<boolean>;
  readonly monitor: MonitorDeps;
  /** what %%VERSION answers */
  readonly version: string;
}

/** What a command may do to the session that sent it. */
export interface X1Host {
  readonly name: string;
  readonly ip: string;
  write(lines: readonly string[]): void;
  /** not in a proposal or a game: it may look for one */
  readonly free: boolean;
  /** Looks for a game; a challenge (%%CHALLENGE) that finds nobody waiting answers false and waits for nothing. */
  seek(game: CsaGameName, challenge: boolean): Promise<boolean>;
  /** Stops waiting for a game, if it was. */
  stopWaiting(): Promise<void>;
  readonly monitors: Map<string, Monitor>;
}

/** Monitors one connection may hold at once. */
const MAX_MONITORS = 8;

/** The game name and side of `%%GAME <name> <+|-|*>`; an error line when they are not one. */
function gameOf(args: readonly string[]): CsaGameName | string {
  const [name = '', turn = '*'] = args;
  const game = parseGameName(name);
  if (game === null || args.length > 2) return x1Error('bad game name');
  if (turn !== '+' && turn !== '-' && turn !== '*') return x1Error(`bad turn ${turn.slice(0, 4)}: +, - or *`);
  const side = turn === '+' ? 'sente' : turn === '-' ? 'gote' : game.side;
  // a round pairs by rating and gives sides by lot
  if (game.floodgate && side !== null)
    return x1Error(`You are not allowed to specify TEBAN ${turn} for the game ${name}`);
  return { ...game, side };
}

export async function x1Command(
  context: X1Context,
  host: X1Host,
  line: Extract<ClientLine, { kind: 'x1' }>,
): Promise<void> {
  const write = (lines: readonly string[]) => host.write(lines);
  switch (line.command) {
    case null:
      return write([x1Error(`unknown command ${line.word.slice(0, 32)}`)]);
    case '%%WHO':
      return write(whoLines(await context.who()));
    case '%%LIST':
      return write(listLines(await context.ongoingGames()));
    case '%%SHOW': {
      const view = line.args[0] === undefined ? null : await context.view(line.args[0]);
      return write(view === null ? [x1Error('no such game')] : showLines(view, null));
    }
    case '%%MONITOR2ON': {
      const gameId = line.args[0] ?? '';
      if (host.monitors.has(gameId)) return;
      if (host.monitors.size >= MAX_MONITORS) return write([x1Error(`at most ${MAX_MONITORS} monitors`)]);
      const monitor = await Monitor.open(context.monitor, gameId, write);
      if (monitor === null) return write([x1Error('no such game')]);
      host.monitors.set(gameId, monitor);
      return;
    }
    case '%%MONITOR2OFF': {
      const gameId = line.args[0] ?? '';
      host.monitors.get(gameId)?.close();
      host.monitors.delete(gameId);
      return;
    }
    case '%%CHAT':
      if (line.text === '') return write([x1Error('nothing to say')]);
      if (!(await context.chat(host.name, line.text, host.ip))) return write([x1Error('too many chat lines')]);
      return;
    case '%%VERSION':
      return write(versionLines(context.version));
    case '%%HELP':
      return write(HELP_LINES);
    case '%%GAME':
    case '%%CHALLENGE': {
      if (!host.free) return write([x1Error(`${line.command} is valid when not in a game`)]);
      await host.stopWaiting();
      if (line.command === '%%GAME' && line.args.length === 0) return;
      const game = gameOf(line.args);
      if (typeof game === 'string') return write([game]);
      if (line.command === '%%CHALLENGE' && game.floodgate)
        return write([x1Error(`can't find rival for ${game.name}`)]);
      const found = await host.seek(game, line.command === '%%CHALLENGE');
      if (!found) write([x1Error(`can't find rival for ${game.name}`)]);
      return;
    }
    default:
      return line.command satisfies never;
  }
}
