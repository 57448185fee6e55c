/**
 * `evolve`: the state after one event. Pure; each case replaces what it changes, its maps
 * persistent (`PersistentMap`), so an event costs O(log n) however many players the state holds.
 */
import { arrangementOf, proposeTime } from './arrangements.js';
import type { TournamentEvent } from './events.js';
import { nextPauseCount } from './pause.js';
import { PersistentMap, withEntry, withoutEntry } from './persistent-map.js';
import { robinSeeds } from './robin-pairer.js';
import { colorOf, forfeitsEjected, type PairingEntry, type PlayerEntry, type TournamentState } from './state.js';

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
    case 'TournamentStarted': {
      // a robin's table is drawn for the players it starts with, and stays so
      const seeds = state.terms?.format === 'robin' ? robinSeeds(state) : null;
      return { ...state, status: 'started', startedAt: event.data.at, seeds, version };
    }
    case 'ArrangementTimeProposed': {
      const { arrangementId, playerId, time } = event.data;
      const times = state.arrangementTimes.get(arrangementId) ?? { sente: null, gote: null, scheduledAt: null };
      const a = arrangementOf(state, arrangementId);
      const side = a?.sente === playerId ? 'sente' : a?.gote === playerId ? 'gote' : null;
      if (side === null) return { ...state, version };
      const arrangementTimes = withEntry(state.arrangementTimes, arrangementId, proposeTime(times, side, time));
      return { ...state, arrangementTimes, version };
    }
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
      const { gameId, winner, plies, at, forfeit } = event.data;
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
        if (player !== undefined) players = players.set(me, { ...player, waitingSince: at });
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
    case 'SwissImported': {
      const { players: entrants, cells, rounds, initialColor, forbidden, at } = event.data;
      let players = PersistentMap.from(state.players);
      for (const player of entrants) {
        const known = players.get(player.id);
        players = players.set(player.id, {
          ...player,
          paused: false,
          waitingSince: at,
          pauses: 0,
          pausedAt: null,
          gameIds: known?.gameIds ?? [],
          entered: known?.entered ?? version,
        });
      }
      const swissImport = {
        order: entrants.map((p) => p.id),
        cells: new Map(entrants.map((p, i) => [p.id, cells[i] ?? []])),
        rounds,
        initialColor,
        forbidden,
      };
      return { ...state, players, swissImport, version };
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
  if (state.status === 'created') return { ...state, players: withoutEntry(state.players, playerId) };
  const players = withEntry(state.players, playerId, { ...player, paused: true, ejected: true });
  if (!forfeitsEjected(state)) return { ...state, players };
  let pairings = PersistentMap.from(state.pairings);
  for (const id of player.gameIds) {
    const p = pairings.get(id);
    const color = p === undefined ? null : colorOf(p, playerId);
    if (p?.result === undefined || color === null) continue;
    const winner = color === 'sente' ? 'gote' : 'sente';
    if (p.result.winner !== winner)
      pairings = pairings.set(id, { ...p, result: { ...p.result, winner, forfeit: true } });
  }
  return { ...state, players, pairings };
}

export const foldTournament = (events: readonly TournamentEvent[], from: TournamentState): TournamentState =>
  events.reduce(evolveTournament, from);
