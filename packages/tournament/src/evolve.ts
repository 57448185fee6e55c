/** `evolve`: the state after one event. Pure; each case copies what it changes. */
import type { TournamentEvent } from './events.js';
import { nextPauseCount } from './pause.js';
import { colorOf, forfeitsEjected, type PairingEntry, type PlayerEntry, type TournamentState } from './state.js';

const withEntry = <V>(map: ReadonlyMap<string, V>, key: string, value: V): Map<string, V> =>
  new Map(map).set(key, value);

const updatePlayer = (state: TournamentState, id: string, change: (p: PlayerEntry) => PlayerEntry) => {
  const p = state.players.get(id);
  return p === undefined ? state.players : withEntry(state.players, id, change(p));
};

export function evolveTournament(state: TournamentState, event: TournamentEvent): TournamentState {
  const version = state.version + 1;
  switch (event.type) {
    case 'TournamentCreated': {
      const { tournamentId, createdBy, terms } = event.data;
      return { ...state, status: 'created', tournamentId, createdBy, terms, version };
    }
    case 'PlayerJoined': {
      const { player, at } = event.data;
      const known = state.players.get(player.id);
      const entry: PlayerEntry =
        known === undefined
          ? { ...player, paused: false, waitingSince: at, pauses: 0, pausedAt: null, gameIds: [] }
          : {
              ...known,
              rating: known.gameIds.length === 0 ? player.rating : known.rating,
              paused: false,
              waitingSince: at,
            };
      return { ...state, players: withEntry(state.players, player.id, entry), version };
    }
    case 'PlayerWithdrew': {
      const players = new Map(state.players);
      players.delete(event.data.playerId);
      return { ...state, players, version };
    }
    case 'PlayerPaused': {
      const { playerId, at, delayed } = event.data;
      const players = updatePlayer(state, playerId, (p) => ({
        ...p,
        paused: true,
        pauses: delayed ? nextPauseCount(p, at) : p.pauses,
        pausedAt: delayed ? at : p.pausedAt,
      }));
      return { ...state, players, version };
    }
    case 'TournamentStarted':
      return { ...state, status: 'started', startedAt: event.data.at, version };
    case 'PlayersPaired': {
      const { pairings: made, at, byes: byed } = event.data;
      const pairings = new Map(state.pairings);
      const playing = new Map(state.playing);
      const players = new Map(state.players);
      for (const p of made) {
        const entry: PairingEntry = { ...p, pairedAt: at, berserk: { sente: false, gote: false } };
        pairings.set(p.gameId, entry);
        playing.set(p.sente, p.gameId);
        playing.set(p.gote, p.gameId);
        for (const id of [p.sente, p.gote]) {
          const player = players.get(id);
          if (player !== undefined) players.set(id, { ...player, gameIds: [...player.gameIds, p.gameId] });
        }
      }
      const byes = byed === undefined ? state.byes : new Map(state.byes).set(byed.round, byed.players);
      return { ...state, pairings, playing, players, byes, version };
    }
    case 'PlayerBerserked': {
      const { gameId, color } = event.data;
      const p = state.pairings.get(gameId);
      if (p === undefined) return { ...state, version };
      const pairing: PairingEntry = { ...p, berserk: { ...p.berserk, [color]: true } };
      return { ...state, pairings: withEntry(state.pairings, gameId, pairing), version };
    }
    case 'GameScored': {
      const { gameId, winner, plies, at, forfeit } = event.data;
      const p = state.pairings.get(gameId);
      if (p === undefined) return { ...state, version };
      const pairing: PairingEntry = { ...p, result: { winner, plies, at, forfeit: forfeit === true } };
      const playing = new Map(state.playing);
      const lastOpponent = new Map(state.lastOpponent);
      const players = new Map(state.players);
      for (const [me, them] of [
        [p.sente, p.gote],
        [p.gote, p.sente],
      ] as const) {
        if (playing.get(me) === gameId) playing.delete(me);
        lastOpponent.set(me, them);
        const player = players.get(me);
        if (player !== undefined) players.set(me, { ...player, waitingSince: at });
      }
      return {
        ...state,
        pairings: withEntry(state.pairings, gameId, pairing),
        playing,
        lastOpponent,
        players,
        version,
      };
    }
    case 'PlayerEjected':
      return { ...ejected(state, event.data.playerId), version };
    case 'TournamentFinished':
      return { ...state, status: 'finished', finishedAt: event.data.at, version };
    case 'TournamentTerminated':
      return { ...state, status: 'finished', finishedAt: event.data.at, terminated: true, version };
    default:
      return event satisfies never;
  }
}

/**
 * Takes an engine-marked player out, as lila's `ejectLameFromEnterable` (before the start: out
 * entirely; running: out, every pairing of theirs not lost by them lost now, the opponents'
 * sheets recomputed from it) and `removePlayerAndRewriteHistory` (finished: out of the standings,
 * the results left). A Swiss keeps its results: a rewritten round would no longer replay the
 * later rounds' pairings from the TRF (this server's choice).
 */
function ejected(state: TournamentState, playerId: string): TournamentState {
  const player = state.players.get(playerId);
  if (player === undefined) return state;
  const players = new Map(state.players);
  if (state.status === 'created') {
    players.delete(playerId);
    return { ...state, players };
  }
  players.set(playerId, { ...player, paused: true, ejected: true });
  if (!forfeitsEjected(state)) return { ...state, players };
  const pairings = new Map(state.pairings);
  for (const id of player.gameIds) {
    const p = pairings.get(id);
    const color = p === undefined ? null : colorOf(p, playerId);
    if (p?.result === undefined || color === null) continue;
    const winner = color === 'sente' ? 'gote' : 'sente';
    if (p.result.winner !== winner) pairings.set(id, { ...p, result: { ...p.result, winner, forfeit: true } });
  }
  return { ...state, players, pairings };
}

export const foldTournament = (events: readonly TournamentEvent[], from: TournamentState): TournamentState =>
  events.reduce(evolveTournament, from);
