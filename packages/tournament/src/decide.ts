/**
 * `decide`: what a command makes happen, as events, or why it is refused. Pure: the time is the
 * command's, pairings come made (the pairers), passwords come hashed (the edge).
 */
import type { ColorName } from '@shogi/rules';
import { pairingsClosed } from './arena-pairer.js';
import { absentOf, arrangementOf, arrangementsOf, dueArrangements, isArranged } from './arrangements.js';
import type {
  Berserk,
  CreateTournament,
  EjectPlayer,
  ImportSwiss,
  JoinTournament,
  PairPlayers,
  ProposeArrangementTime,
  ScoreGame,
  TournamentCommand,
  WithdrawFromTournament,
} from './commands.js';
import type { Pairing, TournamentEvent } from './events.js';
import { PAUSE_RULES, remainingPauseSeconds } from './pause.js';
import { tournamentRejection as reject, type TournamentRejection } from './rejections.js';
import { currentRobinRound, robinRounds } from './robin-pairer.js';
import { standingsOf } from './standings.js';
import { forfeitsEjected, type TournamentState } from './state.js';
import { pairSwissRound } from './swiss-pairer.js';
import { byeRequested, currentSwissRound } from './swiss-rounds.js';
import { finishesAt, validateTerms } from './terms.js';

export type TournamentDecision =
  | { readonly ok: true; readonly events: readonly TournamentEvent[] }
  | { readonly ok: false; readonly rejection: TournamentRejection };

const accept = (...events: TournamentEvent[]): TournamentDecision => ({ ok: true, events });
const refuse = (rejection: TournamentRejection): TournamentDecision => ({ ok: false, rejection });
const other = (c: ColorName): ColorName => (c === 'sente' ? 'gote' : 'sente');

function create(c: CreateTournament, s: TournamentState): TournamentDecision {
  if (s.status !== 'none') return refuse(reject('tournament_exists', `tournament ${c.tournamentId} exists`));
  const bad = validateTerms(c.terms, c.now);
  if (bad !== null) return refuse(bad);
  return accept({
    type: 'TournamentCreated',
    data: { tournamentId: c.tournamentId, createdBy: c.createdBy, terms: c.terms, at: c.now.toISOString() },
  });
}

function join(c: JoinTournament, s: TournamentState): TournamentDecision {
  const terms = s.terms;
  if (terms === null) return refuse(reject('unknown_tournament', 'no such tournament'));
  if (s.status === 'finished') return refuse(reject('tournament_finished', 'the tournament is over'));
  const known = s.players.get(c.player.id);
  if (known?.ejected === true) return refuse(reject('ejected', 'you were taken out of this tournament'));
  if (known !== undefined && !known.paused)
    return refuse(reject('already_joined', 'you are in this tournament already'));
  if (s.status === 'started' && terms.format === 'robin' && known === undefined)
    return refuse(reject('already_started', 'a round-robin takes no one once it has started'));
  if (known === undefined && s.players.size >= terms.maxPlayers)
    return refuse(reject('tournament_full', `the tournament is full (${terms.maxPlayers} players)`));
  if (terms.passwordHash !== null && c.passwordHash !== terms.passwordHash)
    return refuse(reject('wrong_password', 'the password is wrong'));
  if (c.player.bot && !terms.botsAllowed)
    return refuse(reject('bots_not_allowed', 'bots may not join this tournament'));
  const { minRating, nbRatedGame } = terms.conditions;
  if (minRating !== undefined && c.player.rating < minRating)
    return refuse(
      reject('min_rating_not_met', `a rating of at least ${minRating} is needed; yours is ${c.player.rating}`),
    );
  if (nbRatedGame !== undefined && c.ratedGames < nbRatedGame)
    return refuse(reject('nb_rated_games_not_met', `${nbRatedGame} rated games are needed; you have ${c.ratedGames}`));
  if (known !== undefined) {
    const left = remainingPauseSeconds(known, terms.clock, c.now);
    if (left > 0) return refuse(reject('paused', `you paused: you may rejoin in ${left} s`));
  }
  return accept({ type: 'PlayerJoined', data: { player: c.player, at: c.now.toISOString() } });
}

function withdraw(c: WithdrawFromTournament, s: TournamentState): TournamentDecision {
  if (s.status === 'none') return refuse(reject('unknown_tournament', 'no such tournament'));
  if (s.status === 'finished') return refuse(reject('tournament_finished', 'the tournament is over'));
  const p = s.players.get(c.playerId);
  if (p === undefined) return refuse(reject('not_joined', 'you are not in this tournament'));
  const at = c.now.toISOString();
  if (s.status === 'created') return accept({ type: 'PlayerWithdrew', data: { playerId: c.playerId, at } });
  if (p.paused) return accept();
  const rank = standingsOf(s).find((st) => st.player.id === c.playerId)?.rank ?? Number.POSITIVE_INFINITY;
  // lishogi's Pause delay is an arena's; a Swiss player who comes back is paired from the next round
  const delayed = s.terms?.format === 'arena' && rank <= PAUSE_RULES.delayedRanks;
  return accept({ type: 'PlayerPaused', data: { playerId: c.playerId, at, reason: 'withdrew', delayed } });
}

function pair(c: PairPlayers, s: TournamentState): TournamentDecision {
  if (s.status !== 'started' || s.terms === null) return refuse(reject('not_started', 'the tournament is not running'));
  if (s.terms.format === 'arena' && pairingsClosed(s, c.now))
    return refuse(reject('pairings_closed', 'no more pairings so close to the end'));
  const swiss = s.terms.format === 'swiss';
  if (c.pairings.length === 0 && !swiss) return accept();
  const seen = new Set<string>();
  for (const p of c.pairings) {
    if (s.pairings.has(p.gameId) || seen.has(p.gameId))
      return refuse(reject('invalid_pairing', `game ${p.gameId} is paired already`));
    seen.add(p.gameId);
    for (const id of [p.sente, p.gote]) {
      const player = s.players.get(id);
      if (player === undefined) return refuse(reject('invalid_pairing', `${id} is not in the tournament`));
      if (player.paused && s.terms.format !== 'robin') return refuse(reject('invalid_pairing', `${id} is paused`));
      if (s.playing.has(id) || seen.has(`player:${id}`))
        return refuse(reject('invalid_pairing', `${id} is playing already`));
      seen.add(`player:${id}`);
    }
    if (p.sente === p.gote) return refuse(reject('invalid_pairing', 'a player cannot meet themselves'));
  }
  if (swiss) return recordSwissRound(c, s);
  if (isArranged(s)) {
    // an arranged robin's game is paired at the time its players agreed, never before
    const due = new Set(dueArrangements(s, c.now).map((p) => `${p.round}:${p.sente}:${p.gote}`));
    for (const p of c.pairings)
      if (!due.has(`${p.round}:${p.sente}:${p.gote}`))
        return refuse(reject('invalid_pairing', `${p.sente} and ${p.gote} have no game due now`));
  }
  return accept({ type: 'PlayersPaired', data: { pairings: c.pairings, at: c.now.toISOString() } });
}

/**
 * A Swiss round is paired whole, once the last is over: every pairing carries the next round's
 * number, and whoever is in and not paired gets the bye (the Dutch engine leaves one at most).
 */
function recordSwissRound(c: PairPlayers, s: TournamentState): TournamentDecision {
  if (s.playing.size > 0) return refuse(reject('invalid_pairing', 'the last round is not over'));
  const round = currentSwissRound(s) + 1;
  if (round > (s.terms?.swiss?.nbRounds ?? 0)) return refuse(reject('invalid_pairing', 'every round is paired'));
  if (c.pairings.some((p) => p.round !== round))
    return refuse(reject('invalid_pairing', `every pairing must be of round ${round}`));
  const paired = new Set(c.pairings.flatMap((p) => [p.sente, p.gote]));
  const byes = [...s.players.values()]
    .filter((p) => !p.paused && !paired.has(p.id) && !byeRequested(s, p.id, round))
    .map((p) => p.id);
  if (byes.length > 1) return refuse(reject('invalid_pairing', `${byes.length} players left unpaired`));
  if (c.pairings.length === 0 && byes.length === 0) return accept();
  return accept({
    type: 'PlayersPaired',
    data: { pairings: c.pairings, at: c.now.toISOString(), byes: { round, players: byes } },
  });
}

function proposeArrangementTime(c: ProposeArrangementTime, s: TournamentState): TournamentDecision {
  if (s.terms === null) return refuse(reject('unknown_tournament', 'no such tournament'));
  if (!isArranged(s))
    return refuse(reject('invalid_arrangement_time', 'only an arranged round-robin takes times for its games'));
  if (s.status === 'finished') return refuse(reject('tournament_finished', 'the tournament is over'));
  if (s.status !== 'started')
    return refuse(reject('not_started', 'the games are drawn at the start: propose times once it has started'));
  const a = arrangementOf(s, c.arrangementId);
  if (a === undefined) return refuse(reject('unknown_arrangement', `no game ${c.arrangementId} in this tournament`));
  if (a.sente !== c.playerId && a.gote !== c.playerId)
    return refuse(reject('not_in_arrangement', 'you do not play this game'));
  if (a.pairing !== null) return refuse(reject('arrangement_played', 'this game is paired already'));
  if (c.time !== null) {
    const t = c.time.getTime();
    const end = finishesAt(s.terms).getTime();
    if (Number.isNaN(t) || t < c.now.getTime() - 60_000 || t >= end)
      return refuse(
        reject('invalid_arrangement_time', `the time must be from now until the end (${new Date(end).toISOString()})`),
      );
  }
  return accept({
    type: 'ArrangementTimeProposed',
    data: {
      arrangementId: a.id,
      playerId: c.playerId,
      time: c.time === null ? null : c.time.toISOString(),
      at: c.now.toISOString(),
    },
  });
}

/** The creator's TRF, before the start: its players join, its rounds count as played. */
function importSwiss(c: ImportSwiss, s: TournamentState): TournamentDecision {
  const swiss = s.terms?.swiss;
  if (s.status === 'none' || s.terms === null) return refuse(reject('unknown_tournament', 'no such tournament'));
  if (s.terms.format !== 'swiss' || swiss === undefined)
    return refuse(reject('invalid_trf', 'only a Swiss is continued from a TRF'));
  if (s.createdBy?.id !== c.by) return refuse(reject('not_creator', 'only its creator may import a TRF'));
  if (s.status !== 'created')
    return refuse(reject('import_closed', 'the Swiss has started: a TRF is imported before the start'));
  if (s.swissImport !== null) return refuse(reject('import_closed', 'a TRF was imported already'));
  if (c.rounds >= swiss.nbRounds)
    return refuse(
      reject(
        'invalid_trf',
        `the file has ${c.rounds} rounds played; the Swiss has ${swiss.nbRounds}: none left to pair`,
      ),
    );
  if (c.cells.length !== c.players.length) return refuse(reject('invalid_trf', 'one row of cells a player'));
  const ids = new Set(c.players.map((p) => p.id));
  if (ids.size !== c.players.length) return refuse(reject('invalid_trf', 'a player is in the file twice'));
  const joined = [...s.players.keys()].filter((id) => !ids.has(id)).length;
  if (joined + c.players.length > s.terms.maxPlayers)
    return refuse(reject('invalid_trf', `the Swiss takes at most ${s.terms.maxPlayers} players`));
  for (const row of c.cells) {
    if (row.length < c.rounds || row.length > c.rounds + 1)
      return refuse(
        reject('invalid_trf', `each player has ${c.rounds} rounds, and at most a bye requested for the next`),
      );
    for (const cell of row)
      if (cell.opponent !== null && !ids.has(cell.opponent))
        return refuse(reject('invalid_trf', `an opponent ${cell.opponent} not in the file`));
  }
  return accept({
    type: 'SwissImported',
    data: {
      players: c.players,
      cells: c.cells,
      rounds: c.rounds,
      initialColor: c.initialColor,
      forbidden: c.forbidden,
      at: c.now.toISOString(),
    },
  });
}

/** The window is over: each game never paired is forfeited (a game paired and created plays on, and counts if done in time). */
function forfeitArrangements(s: TournamentState, now: Date): TournamentDecision {
  if (s.status !== 'started' || s.terms === null) return refuse(reject('not_started', 'the tournament is not running'));
  if (!isArranged(s)) return refuse(reject('invalid_pairing', 'only an arranged round-robin forfeits its games'));
  if (now.getTime() < finishesAt(s.terms).getTime())
    return refuse(reject('not_started', 'the games may be played until the end'));
  const at = now.toISOString();
  const events: TournamentEvent[] = [];
  for (const a of arrangementsOf(s)) {
    if (a.pairing !== null) continue;
    const gameId = `${s.tournamentId}-${a.id}`;
    const absent = absentOf(a);
    events.push(
      { type: 'PlayersPaired', data: { pairings: [{ gameId, sente: a.sente, gote: a.gote, round: a.round }], at } },
      {
        type: 'GameScored',
        data: { gameId, winner: absent === 'both' ? null : other(absent), plies: 0, at, forfeit: true },
      },
    );
  }
  return accept(...events);
}

function berserk(c: Berserk, s: TournamentState): TournamentDecision {
  if (s.status !== 'started' || s.terms === null) return refuse(reject('not_started', 'the tournament is not running'));
  if (!s.terms.berserkable || s.terms.format !== 'arena')
    return refuse(reject('not_berserkable', 'this tournament has no berserk'));
  const p = s.pairings.get(c.gameId);
  if (p === undefined) return refuse(reject('unknown_game', `game ${c.gameId} is not this tournament's`));
  if (p.result !== undefined) return refuse(reject('game_already_scored', 'the game is over'));
  const color = p.sente === c.playerId ? 'sente' : p.gote === c.playerId ? 'gote' : null;
  if (color === null) return refuse(reject('not_joined', 'you do not play this game'));
  if (p.berserk[color]) return accept();
  return accept({ type: 'PlayerBerserked', data: { gameId: c.gameId, color, at: c.now.toISOString() } });
}

function score(c: ScoreGame, s: TournamentState): TournamentDecision {
  // lila and lishogi count a game only while the tournament runs (`finishGame` on a started one)
  if (s.status === 'finished')
    return refuse(reject('tournament_finished', 'the tournament is over: the game does not count'));
  if (s.status !== 'started') return refuse(reject('not_started', 'the tournament is not running'));
  const p = s.pairings.get(c.gameId);
  if (p === undefined) return refuse(reject('unknown_game', `game ${c.gameId} is not this tournament's`));
  if (p.result !== undefined) return refuse(reject('game_already_scored', `game ${c.gameId} is scored already`));
  if (!Number.isSafeInteger(c.plies) || c.plies < 0)
    return refuse(reject('invalid_pairing', 'plies must be a whole number'));
  const at = c.now.toISOString();
  const events: TournamentEvent[] = [];
  // a game of an ejected player ending in a running tournament is lost by them (lila aborts it, `AbortForce`)
  const out = ejectedSide(s, p);
  if (out !== null) {
    const winner = other(out);
    return accept({ type: 'GameScored', data: { gameId: c.gameId, winner, plies: c.plies, at, forfeit: true } });
  }
  if (s.terms?.format === 'arena' && s.terms.berserkable)
    for (const color of ['sente', 'gote'] as const)
      if (c.berserk?.[color] === true && !p.berserk[color])
        events.push({ type: 'PlayerBerserked', data: { gameId: c.gameId, color, at } });
  // a Swiss player who never moved loses by forfeit: the round's result, no game played
  // (and so does a robin player: the game never played)
  const forfeit =
    (s.terms?.format === 'swiss' || s.terms?.format === 'robin') && c.noStartBy !== undefined
      ? { forfeit: true as const }
      : {};
  events.push({ type: 'GameScored', data: { gameId: c.gameId, winner: c.winner, plies: c.plies, at, ...forfeit } });
  if (c.noStartBy !== undefined && s.terms?.format === 'arena') {
    const playerId = c.noStartBy === 'sente' ? p.sente : p.gote;
    if (s.players.get(playerId)?.paused === false)
      events.push({ type: 'PlayerPaused', data: { playerId, at, reason: 'no_start', delayed: false } });
  }
  return accept(...events);
}

const ejectedSide = (s: TournamentState, p: Pairing): ColorName | null => {
  if (!forfeitsEjected(s)) return null;
  if (s.players.get(p.sente)?.ejected === true) return 'sente';
  if (s.players.get(p.gote)?.ejected === true) return 'gote';
  return null;
};

function eject(c: EjectPlayer, s: TournamentState): TournamentDecision {
  if (s.status === 'none') return refuse(reject('unknown_tournament', 'no such tournament'));
  const p = s.players.get(c.playerId);
  if (p === undefined) return refuse(reject('not_joined', `${c.playerId} is not in this tournament`));
  if (p.ejected === true) return accept();
  return accept({ type: 'PlayerEjected', data: { playerId: c.playerId, at: c.now.toISOString() } });
}

export function decideTournament(c: TournamentCommand, s: TournamentState): TournamentDecision {
  switch (c.type) {
    case 'CreateTournament':
      return create(c, s);
    case 'JoinTournament':
      return join(c, s);
    case 'WithdrawFromTournament':
      return withdraw(c, s);
    case 'StartTournament': {
      if (s.status === 'none') return refuse(reject('unknown_tournament', 'no such tournament'));
      if (s.status !== 'created') return refuse(reject('already_started', 'the tournament has started already'));
      if (s.terms !== null && c.now.getTime() < Date.parse(s.terms.startsAt))
        return refuse(reject('not_started', 'the tournament starts later'));
      if (s.terms?.format === 'robin' && s.players.size < 2)
        return refuse(reject('too_few_players', 'a round-robin needs two players'));
      return accept({ type: 'TournamentStarted', data: { at: c.now.toISOString() } });
    }
    case 'PairPlayers':
      return pair(c, s);
    case 'Berserk':
      return berserk(c, s);
    case 'ScoreGame':
      return score(c, s);
    case 'ForfeitGame': {
      if (s.terms?.format === 'arena')
        return refuse(reject('invalid_pairing', 'only a round-robin or Swiss game is forfeited'));
      const winner = other(c.absent);
      const checked = score({ type: 'ScoreGame', gameId: c.gameId, winner, plies: 0, now: c.now }, s);
      if (!checked.ok) return checked;
      return accept({
        type: 'GameScored',
        data: { gameId: c.gameId, winner, plies: 0, at: c.now.toISOString(), forfeit: true },
      });
    }
    case 'ProposeArrangementTime':
      return proposeArrangementTime(c, s);
    case 'ForfeitArrangements':
      return forfeitArrangements(s, c.now);
    case 'ImportSwiss':
      return importSwiss(c, s);
    case 'EjectPlayer':
      return eject(c, s);
    case 'FinishTournament': {
      if (s.status !== 'started' || s.terms === null)
        return refuse(reject('not_started', 'the tournament is not running'));
      // a Swiss is over once its rounds are played, or when its next round cannot be paired (lichess)
      const swissOver =
        s.terms.format === 'swiss' &&
        s.playing.size === 0 &&
        (currentSwissRound(s) >= (s.terms.swiss?.nbRounds ?? 0) || pairSwissRound(s).length === 0);
      const over =
        swissOver ||
        (s.terms.format !== 'swiss' && c.now.getTime() >= finishesAt(s.terms).getTime()) ||
        (s.terms.format === 'robin' &&
          s.playing.size === 0 &&
          (isArranged(s)
            ? arrangementsOf(s).every((a) => a.pairing?.result !== undefined)
            : currentRobinRound(s) >= robinRounds(s)));
      if (!over) return refuse(reject('not_started', 'the tournament runs until its end'));
      return accept({ type: 'TournamentFinished', data: { at: c.now.toISOString() } });
    }
    case 'TerminateTournament': {
      if (s.status === 'none') return refuse(reject('unknown_tournament', 'no such tournament'));
      if (s.status === 'finished') return refuse(reject('tournament_finished', 'the tournament is over'));
      if (s.createdBy?.id !== c.by) return refuse(reject('not_creator', 'only its creator may terminate a tournament'));
      return accept({ type: 'TournamentTerminated', data: { by: c.by, at: c.now.toISOString() } });
    }
    default:
      return c satisfies never;
  }
}
