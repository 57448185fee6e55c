/**
 * `evolve`: the state after one event. Pure; each case replaces what it changes, its maps
 * persistent (`PersistentMap`), so an event costs O(log n) however many players the state holds.
 */
import type { TournamentEvent } from './events.js';
import { nextPauseCount } from './pause.js';
import { PersistentMap, withEntry, withoutEntry } from './persistent-map.js';
import type { PairingEntry, PlayerEntry, TournamentState } from './state.js';

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
          ? { ...player, paused: false, waitingSince: at, pauses: 0, pausedAt: null, gameIds: [], entered: version }
          : {
              ...known,
              rating: known.gameIds.length === 0 ? player.rating : known.rating,
              paused: false,
              waitingSince: at,
            };
      return { ...state, players: withEntry(state.players, player.id, entry), version };
    }
    case 'PlayerWithdrew': {
      return { ...state, players: withoutEntry(state.players, event.data.playerId), version };
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
      let pairings = PersistentMap.from(state.pairings);
      let playing = PersistentMap.from(state.playing);
      let players = PersistentMap.from(state.players);
      for (const p of made) {
        const entry: PairingEntry = { ...p, pairedAt: at, berserk: { sente: false, gote: false } };
        pairings = pairings.set(p.gameId, entry);
        playing = playing.set(p.sente, p.gameId).set(p.gote, p.gameId);
        for (const id of [p.sente, p.gote]) {
          const player = players.get(id);
          if (player !== undefined) players = players.set(id, { ...player, gameIds: [...player.gameIds, p.gameId] });
        }
      }
      const byes = byed === undefined ? state.byes : withEntry(state.byes, byed.round, byed.players);
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
      const { gameId, winner, plies, at, forfeit, endedAt } = event.data;
      const p = state.pairings.get(gameId);
      if (p === undefined) return { ...state, version };
      const pairing: PairingEntry = { ...p, result: { winner, plies, at, forfeit: forfeit === true } };
      let playing = PersistentMap.from(state.playing);
      let lastOpponent = PersistentMap.from(state.lastOpponent);
      let players = PersistentMap.from(state.players);
      for (const [me, them] of [
        [p.sente, p.gote],
        [p.gote, p.sente],
      ] as const) {
        if (playing.get(me) === gameId) playing = playing.delete(me);
        lastOpponent = lastOpponent.set(me, them);
        const player = players.get(me);
        // the wait for the next wave starts at the game's end (lichess), not at its scoring
        if (player !== undefined) players = players.set(me, { ...player, waitingSince: endedAt ?? at });
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
    case 'TournamentFinished':
      return { ...state, status: 'finished', finishedAt: event.data.at, version };
    case 'TournamentTerminated':
      return { ...state, status: 'finished', finishedAt: event.data.at, terminated: true, version };
    default:
      return event satisfies never;
  }
}

export const foldTournament = (events: readonly TournamentEvent[], from: TournamentState): TournamentState =>
  events.reduce(evolveTournament, from);
