/**
 * Floodgate's scheduled rounds: players who log in with a `floodgate-` game name wait, and at
 * each round of their game name the waiting players are paired (floodgate-pairing.ts) and
 * proposed their games. Rounds fall at multiples of the game name's interval since the epoch
 * (every 30 minutes by default: :00 and :30), so every gateway knows them without being told;
 * the first gateway to claim a round in Redis runs it, the others skip it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pairRound } from './floodgate-pairing.js';
import { floodgateRoundNumber } from './floodgate-tournament.js';
import { parseGameName } from './game-name.js';
import type { PairingStore } from './pairing-store.js';
import { announce, proposalOf } from './proposals.js';

export interface FloodgateOptions {
  readonly pairing: PairingStore;
  /** the interval of game names without one of their own, ms */
  readonly intervalMs: number;
  /** intervals of given game names, ms */
  readonly schedule: Readonly<Record<string, number>>;
  readonly maxMoves: number;
  readonly log: FastifyBaseLogger;
  readonly random?: () => number;
  readonly now?: () => number;
}

export interface Floodgate {
  /** The next round of the game name, ms since the epoch. */
  nextRound(gameName: string, now?: number): number;
  stop(): void;
}

export function startFloodgate(options: FloodgateOptions): Floodgate {
  const { pairing, log } = options;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const intervalOf = (name: string) => options.schedule[name] ?? options.intervalMs;
  const intervals = [...new Set([options.intervalMs, ...Object.values(options.schedule)])];
  const nextAfter = (t: number, interval: number) => (Math.floor(t / interval) + 1) * interval;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const round = async (name: string, at: number) => {
    const game = parseGameName(name);
    if (game === null || !(await pairing.claimRound(name, at, intervalOf(name)))) return;
    // one entry a player (a player connected twice waits once)
    const seen = new Set<string>();
    const players = (await pairing.waiting(name, now())).filter((e) => !seen.has(e.playerId) && seen.add(e.playerId));
    if (players.length < 2) return;
    const last = await pairing.lastOpponents(
      name,
      players.map((p) => p.playerId),
    );
    const { pairs } = pairRound(players, last, random);
    for (const [a, b] of pairs) {
      // a player who left since the round read the queue is not proposed a game
      if (!(await pairing.take(name, [a, b]))) continue;
      await pairing.met(name, a.playerId, b.playerId);
      const round = { at, number: floodgateRoundNumber(at, intervalOf(name)) };
      await announce(pairing, { ...proposalOf(game, a, b, random() < 0.5, options.maxMoves), round });
    }
    log.info({ gameName: name, at: new Date(at).toISOString(), paired: pairs.length * 2 }, 'csa: floodgate round');
  };

  const tick = (at: number) => {
    timer = null;
    if (stopped) return;
    pairing
      .roundNames(now())
      .then((names) =>
        Promise.all(
          [...new Set([...names, ...Object.keys(options.schedule)])]
            .filter((name) => at % intervalOf(name) === 0)
            .map((name) => round(name, at)),
        ),
      )
      .catch((err: unknown) => log.warn({ err }, 'csa: floodgate round failed'))
      .finally(schedule);
  };

  function schedule(): void {
    if (stopped) return;
    const t = now();
    const at = Math.min(...intervals.map((i) => nextAfter(t, i)));
    timer = setTimeout(() => tick(at), Math.max(0, at - now()));
    timer.unref();
  }

  schedule();
  return {
    nextRound: (gameName, t = now()) => nextAfter(t, intervalOf(gameName)),
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
