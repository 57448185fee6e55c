// FIDE's Tournament Report File: the 001 player lines (TRF-16 / TRF-2026 columns) and the
// TRF(x)/TRF(bx) lines pairing engines exchange (XXR rounds, XXC first colour, XXP forbidden
// pairs, BBW/BBD/BBL/BBZ/BBF/BBU and 162 point systems). Lines may end with CR, LF or CRLF.

import {
  absentMatch,
  type Color,
  computePlayerData,
  defaultPoints,
  invert,
  type Match,
  type MatchScore,
  type PointSystem,
  pointsFor,
  type Tournament,
  updateRanks,
} from './tournament.js';

export class TrfError extends Error {
  override readonly name = 'TrfError';
}

export interface TrfPlayer {
  /** Zero-based pairing number. */
  readonly id: number;
  readonly line: string;
  readonly name: string;
  readonly rating: number;
  /** Points in tenths as written in columns 81-84. */
  readonly points: number;
  /** Every round cell written, blank trailing cells left out. */
  readonly matches: Match[];
}

export interface TrfFile {
  readonly players: TrfPlayer[];
  /** XXR (or 142): the number of rounds of the event, 0 when absent. */
  readonly expectedRounds: number;
  /** XXC white1/black1 (or 152 W/B): the colour of the first player in round 1. */
  readonly initialColor: Color;
  readonly points: PointSystem;
  readonly forbidden: number[][];
  /** TRF-2026 260 lines: players who may not meet each other in rounds first..last (zero-based). */
  readonly forbiddenInRounds: { readonly first: number; readonly last: number; readonly players: number[] }[];
  /** TRF-2026 240 lines: players not to be paired in a round (zero-based), by id. */
  readonly absences: { readonly round: number; readonly players: number[] }[];
  /** The lines this reader does not interpret, kept for the writer. */
  readonly otherLines: string[];
}

const splitLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

function parseNumber(field: string, what: string, line: string): number {
  const token = field.trim();
  if (!/^\d+$/.test(token)) throw new TrfError(`invalid ${what} in line "${line}"`);
  return Number(token);
}

function parsePoints(field: string, line: string): number {
  const token = field.trim();
  const m = /^(\d+)(?:\.(\d))?$/.exec(token);
  if (m === null) throw new TrfError(`invalid points in line "${line}"`);
  return Number(m[1]) * 10 + Number(m[2] ?? 0);
}

function parseId(field: string, line: string): number {
  const id = parseNumber(field, 'pairing number', line);
  if (id === 0) throw new TrfError(`pairing number 0 in line "${line}"`);
  return id - 1;
}

const DRAWS = new Set(['D', '=', 'H']);
const WINS = new Set(['+', 'W', '1', 'F', 'U']);
const LOSSES = new Set(['-', 'L', '0', 'Z', ' ']);
const UNPLAYED = new Set(['+', '-', 'H', 'F', 'U', 'Z', ' ']);

function parsePlayer(line: string): TrfPlayer {
  if (line.length < 84) throw new TrfError(`player line too short: "${line}"`);
  const id = parseId(line.slice(4, 8), line);
  const ratingField = line.slice(48, 52).trim();
  const rating = ratingField === '' ? 0 : parseNumber(ratingField, 'rating', line);
  const points = parsePoints(line.slice(80, 84), line);
  const matches: Match[] = [];
  let skipped = 0;
  let start = 91;
  for (; start + 8 <= line.length; start += 10) {
    let skip = true;
    let played = true;
    const opponentField = line.slice(start, start + 4);
    let opponent = id;
    if (opponentField !== '    ') {
      if (opponentField !== '0000') {
        opponent = parseId(opponentField, line);
        if (opponent === id) throw new TrfError(`player ${id + 1} paired with itself: "${line}"`);
      }
      skip = false;
    }
    if (opponent === id) played = false;
    const colorChar = line[start + 5];
    const color: Color = colorChar === 'w' ? 'w' : colorChar === 'b' ? 'b' : null;
    if (colorChar === 'w' || colorChar === 'b') skip = false;
    else if (colorChar === '-') {
      skip = false;
      played = false;
    } else if (colorChar === ' ') played = false;
    else throw new TrfError(`invalid colour "${colorChar}" in line "${line}"`);
    if (opponent === id && color !== null) throw new TrfError(`a colour without an opponent: "${line}"`);
    const resultChar = (line[start + 7] ?? ' ').toUpperCase();
    let score: MatchScore;
    if (DRAWS.has(resultChar)) score = 'draw';
    else if (WINS.has(resultChar)) score = 'win';
    else if (LOSSES.has(resultChar)) score = 'loss';
    else throw new TrfError(`invalid result "${resultChar}" in line "${line}"`);
    if (UNPLAYED.has(resultChar)) {
      played = false;
      if (resultChar !== '+' && resultChar !== '-' && opponent !== id) {
        throw new TrfError(`a bye with an opponent: "${line}"`);
      }
    } else if (color === null && (resultChar !== '=' || opponent !== id)) {
      throw new TrfError(`a game without a colour: "${line}"`);
    }
    if (resultChar !== ' ') skip = false;
    const participated = opponent !== id || resultChar === 'U' || resultChar === '+';
    if (skip) {
      skipped++;
      continue;
    }
    for (; skipped > 0; skipped--) matches.push(absentMatch(id));
    matches.push({ opponent, color, score, played, participated });
  }
  if (line.slice(start).trim() !== '') throw new TrfError(`unexpected text at the end of line "${line}"`);
  return { id, line, name: line.slice(14, 47).trim(), rating, points, matches };
}

function parsePointLine(line: string, points: PointSystem, explicitBye: { set: boolean }): void {
  for (let start = 5; start + 5 <= line.length; start += 9) {
    const symbol = line[start];
    const value = parsePoints(line.slice(start + 1, start + 5), line);
    if (symbol === 'W') {
      points.win = value;
      if (!explicitBye.set) points.pairingAllocatedBye = value;
    } else if (symbol === 'D') points.draw = value;
    else if (symbol === 'L') points.loss = value;
    else if (symbol === 'A') {
      points.zeroPointBye = value;
      points.forfeitLoss = value;
    } else if (symbol === 'P') {
      points.pairingAllocatedBye = value;
      explicitBye.set = true;
    } else throw new TrfError(`invalid point system line "${line}"`);
  }
}

/** Reads a TRF text. Throws TrfError, with the offending line, on malformed input. */
export function parseTrf(text: string): TrfFile {
  const players: TrfPlayer[] = [];
  const seen = new Set<number>();
  let expectedRounds = 0;
  let initialColor: Color = null;
  const points = defaultPoints();
  const explicitBye = { set: false };
  const forbidden: number[][] = [];
  const forbiddenInRounds: TrfFile['forbiddenInRounds'][number][] = [];
  const absences: TrfFile['absences'][number][] = [];
  const otherLines: string[] = [];
  const idsFrom = (line: string, start: number): number[] => {
    const ids: number[] = [];
    for (let at = start; at < line.length; at += 5) {
      const field = line.slice(at, at + 4);
      if (field.trim() !== '') ids.push(parseId(field, line));
    }
    return ids;
  };
  const roundAt = (line: string, from: number, to: number): number => {
    const round = parseNumber(line.slice(from, to), 'round', line);
    if (round === 0) throw new TrfError(`round 0 in line "${line}"`);
    return round - 1;
  };
  for (const line of splitLines(text)) {
    if (line.length < 3) continue;
    const prefix = line.slice(0, 3);
    const rest = line.slice(3).trim();
    const bbValue = (): number => parsePoints(line.slice(4, 12), line);
    switch (prefix) {
      case '001': {
        const player = parsePlayer(line);
        if (seen.has(player.id)) throw new TrfError(`pairing number ${player.id + 1} is repeated`);
        seen.add(player.id);
        players.push(player);
        break;
      }
      case '013':
      case '310':
        throw new TrfError('team tournaments are not supported');
      case 'XXR':
      case '142': {
        expectedRounds = parseNumber(rest, 'number of rounds', line);
        if (expectedRounds <= 0) throw new TrfError(`invalid number of rounds: "${line}"`);
        break;
      }
      case 'XXC':
        for (const token of rest.split(/[ \t]+/)) {
          if (token === 'white1') initialColor = 'w';
          else if (token === 'black1') initialColor = 'b';
        }
        break;
      case '152':
        if (rest === 'W') initialColor = 'w';
        else if (rest === 'B') initialColor = 'b';
        else throw new TrfError(`invalid first colour: "${line}"`);
        break;
      case '240':
        absences.push({ round: roundAt(line, 6, 9), players: idsFrom(line, 10) });
        break;
      case '260':
        forbiddenInRounds.push({ first: roundAt(line, 4, 7), last: roundAt(line, 8, 11), players: idsFrom(line, 12) });
        break;
      case 'XXP':
        forbidden.push(rest.split(/[ \t]+/).map((field) => parseId(field, line)));
        break;
      case '162':
        parsePointLine(line, points, explicitBye);
        break;
      case 'BBW':
        points.win = bbValue();
        if (!explicitBye.set) points.pairingAllocatedBye = points.win;
        break;
      case 'BBD':
        points.draw = bbValue();
        break;
      case 'BBL':
        points.loss = bbValue();
        break;
      case 'BBZ':
        points.zeroPointBye = bbValue();
        break;
      case 'BBF':
        points.forfeitLoss = bbValue();
        break;
      case 'BBU':
        points.pairingAllocatedBye = bbValue();
        explicitBye.set = true;
        break;
      case 'XXA':
      case '250':
        throw new TrfError('accelerations are not supported');
      default:
        otherLines.push(line);
    }
  }
  players.sort((a, b) => a.id - b.id);
  players.forEach((player, index) => {
    if (player.id !== index) throw new TrfError(`pairing number ${index + 1} is missing`);
  });
  return { players, expectedRounds, initialColor, points, forbidden, forbiddenInRounds, absences, otherLines };
}

/** The colour the first-ranked player had in the first round any game was played. */
function inferFirstColor(t: Tournament): Color {
  let minRound = Number.POSITIVE_INFINITY;
  for (const player of t.players) {
    if (!player.valid) continue;
    player.matches.forEach((match, round) => {
      if (match.color !== null && round < minRound) minRound = round;
    });
  }
  if (!Number.isFinite(minRound)) return null;
  const rank = 0;
  for (const player of t.players) {
    let present = false;
    for (let round = 0; round <= minRound && round < player.matches.length; round++) {
      if (player.matches[round]!.participated) present = true;
    }
    if (!present) continue;
    const color = player.matches[minRound]!.color;
    return rank & 1 ? invert(color) : color;
  }
  return null;
}

function buildTournament(file: TrfFile, matchesOf: (p: TrfPlayer) => Match[], playedRounds: number): Tournament {
  const t: Tournament = {
    players: file.players.map((p) => ({
      id: p.id,
      name: p.name,
      rating: p.rating,
      matches: matchesOf(p),
      score: 0,
      accelerations: [],
      rankIndex: p.id,
      valid: true,
      playedGames: 0,
      colorImbalance: 0,
      colorPreference: null,
      repeatedColor: null,
      strongColorPreference: false,
    })),
    playedRounds,
    expectedRounds: file.expectedRounds,
    points: { ...file.points },
    initialColor: file.initialColor,
    forbiddenPairs: file.players.map(() => new Set<number>()),
  };
  const groups = [
    ...file.forbidden,
    ...file.forbiddenInRounds.filter((f) => f.first <= playedRounds && playedRounds <= f.last).map((f) => f.players),
  ];
  for (const group of groups) {
    for (const a of group) for (const b of group) if (a !== b && a < t.players.length) t.forbiddenPairs[a]!.add(b);
  }
  for (const player of t.players) {
    if (player.matches.length < playedRounds) {
      while (player.matches.length < playedRounds) player.matches.push(absentMatch(player.id));
    }
  }
  updateRanks(t);
  for (const player of t.players) {
    let score = 0;
    for (let round = 0; round < playedRounds; round++) score += pointsFor(t, player, player.matches[round]!);
    player.score = score;
  }
  if (t.initialColor === null) t.initialColor = inferFirstColor(t);
  validatePairs(t);
  computePlayerData(t);
  return t;
}

function validatePairs(t: Tournament): void {
  for (const player of t.players) {
    if (!player.valid) continue;
    player.matches.forEach((match, round) => {
      if (!match.played) return;
      const other = t.players[match.opponent]?.matches[round];
      if (other === undefined || !other.played || other.color === match.color || other.opponent !== player.id) {
        throw new TrfError(`round ${round + 1} of player ${player.id + 1} contradicts the opponent's entry`);
      }
    });
  }
}

/**
 * The tournament as it stands before its next round (JaVaFo's -p): the rounds anyone was paired
 * in are played; a cell beyond them is a bye requested for the next round.
 */
export function tournamentForNextRound(file: TrfFile): Tournament {
  let playedRounds = 0;
  for (const player of file.players) {
    player.matches.forEach((match, round) => {
      if (match.participated && round + 1 > playedRounds) playedRounds = round + 1;
    });
  }
  for (const player of file.players) {
    if (player.matches.length > playedRounds + 1) {
      throw new TrfError(`player ${player.id + 1} has entries beyond the next round`);
    }
  }
  if (file.expectedRounds === 0) throw new TrfError('the number of rounds (XXR) must be given to pair a round');
  if (playedRounds >= file.expectedRounds) throw new TrfError('every round of the event is already paired');
  const absent = new Set(file.absences.filter((a) => a.round === playedRounds).flatMap((a) => a.players));
  const t = buildTournament(
    file,
    (p) => {
      const matches = p.matches.slice();
      if (absent.has(p.id) && matches.length <= playedRounds) {
        while (matches.length <= playedRounds) matches.push(absentMatch(p.id));
      }
      return matches;
    },
    playedRounds,
  );
  checkScores(file, t);
  return t;
}

/**
 * The tournament cut after `round` rounds of a finished file: each player's first `round`
 * cells, and a bye already requested for the next one kept in its cell.
 */
export function tournamentAfterRound(file: TrfFile, round: number, initialColor: Color): Tournament {
  const t = buildTournament(
    { ...file, initialColor: initialColor ?? file.initialColor },
    (p) => {
      const kept = p.matches.slice(0, round);
      const next = p.matches[round];
      if (next === undefined || !next.participated) {
        while (kept.length < round) kept.push(absentMatch(p.id));
        kept.push(next ?? absentMatch(p.id));
      }
      return kept;
    },
    round,
  );
  return t;
}

/** The number of rounds a file holds (the last round anyone has a cell for). */
export function roundsInFile(file: TrfFile): number {
  let rounds = 0;
  for (const player of file.players) rounds = Math.max(rounds, player.matches.length);
  return rounds;
}

/** The first-round colour of a whole file, from its XXC line or its games. */
export function firstColorOf(file: TrfFile): Color {
  if (file.initialColor !== null) return file.initialColor;
  const rounds = roundsInFile(file);
  return buildTournament(file, (p) => p.matches.slice(), rounds).initialColor;
}

function checkScores(file: TrfFile, t: Tournament): void {
  for (const p of file.players) {
    const player = t.players[p.id]!;
    if (!player.valid) continue;
    const next = player.matches[t.playedRounds];
    const withNext = next === undefined ? player.score : player.score + pointsFor(t, player, next);
    if (p.points !== player.score && p.points !== withNext) {
      throw new TrfError(`the points of player ${p.id + 1} do not match the results`);
    }
  }
}

const pad = (text: string, width: number): string => text.padStart(width, ' ');
const formatPoints = (tenths: number): string => `${Math.floor(tenths / 10)}.${tenths % 10}`;

function formatCell(playerId: number, match: Match): string {
  if (!match.participated) {
    return `0000 - ${match.score === 'win' ? 'F' : match.score === 'draw' ? 'H' : 'Z'}`;
  }
  if (match.opponent === playerId) return '0000 - U';
  const result = match.played
    ? match.score === 'win'
      ? '1'
      : match.score === 'draw'
        ? '='
        : '0'
    : match.score === 'win'
      ? '+'
      : '-';
  return `${pad(String(match.opponent + 1), 4)} ${match.color ?? '-'} ${result}`;
}

export interface TrfPlayerRecord {
  readonly id: number;
  readonly name: string;
  readonly rating: number;
  readonly points: number;
  readonly rank: number;
  readonly matches: readonly Match[];
}

/** A 001 line in TRF-16 columns: start rank 5-8, name 15-47, rating 49-52, points 81-84. */
export function formatPlayerLine(record: TrfPlayerRecord): string {
  const head = `001 ${pad(String(record.id + 1), 4)}      ${record.name.slice(0, 33).padEnd(33, ' ')} ${pad(
    record.rating > 0 ? String(record.rating) : '',
    4,
  )}`;
  const cells = record.matches.map((m) => `  ${formatCell(record.id, m)}`).join('');
  return `${head.padEnd(80, ' ')}${pad(formatPoints(record.points), 4)} ${pad(String(record.rank), 4)}${cells}`;
}

export interface TrfDocument {
  readonly name?: string;
  readonly expectedRounds: number;
  readonly initialColor: Color;
  readonly players: readonly TrfPlayerRecord[];
  readonly forbidden?: readonly (readonly number[])[];
  readonly points?: PointSystem;
}

/** Writes a TRF(x) document with CR line ends, as bbpPairings and JaVaFo write theirs. */
export function formatTrf(doc: TrfDocument, lineEnd = '\r'): string {
  const lines: string[] = [];
  if (doc.name !== undefined) lines.push(`012 ${doc.name}`);
  for (const player of doc.players) lines.push(formatPlayerLine(player));
  if (doc.expectedRounds > 0) lines.push(`XXR ${doc.expectedRounds}`);
  if (doc.initialColor !== null) lines.push(`XXC ${doc.initialColor === 'w' ? 'white1' : 'black1'}`);
  for (const group of doc.forbidden ?? []) lines.push(`XXP ${group.map((id) => id + 1).join(' ')}`);
  const pts = doc.points;
  if (pts !== undefined) {
    const def = defaultPoints();
    if (pts.win !== def.win) lines.push(`BBW ${pad(formatPoints(pts.win), 4)}`);
    if (pts.draw !== def.draw) lines.push(`BBD ${pad(formatPoints(pts.draw), 4)}`);
    if (pts.loss !== def.loss) lines.push(`BBL ${pad(formatPoints(pts.loss), 4)}`);
    if (pts.zeroPointBye !== def.zeroPointBye) lines.push(`BBZ ${pad(formatPoints(pts.zeroPointBye), 4)}`);
    if (pts.forfeitLoss !== def.forfeitLoss) lines.push(`BBF ${pad(formatPoints(pts.forfeitLoss), 4)}`);
    if (pts.pairingAllocatedBye !== pts.win) lines.push(`BBU ${pad(formatPoints(pts.pairingAllocatedBye), 4)}`);
  }
  return lines.map((line) => line + lineEnd).join('');
}

/**
 * The file cut after `round` rounds (the fixtures' recipe): each player's first `round` cells,
 * a bye already requested for the next round kept, points recomputed, XXR and XXC written.
 */
export function trfAfterRound(file: TrfFile, round: number, expectedRounds: number): string {
  const withRounds = { ...file, expectedRounds };
  const first = file.initialColor ?? firstColorOf(withRounds);
  const t = tournamentAfterRound(withRounds, round, first);
  return formatTrf({
    expectedRounds,
    initialColor: t.initialColor,
    points: file.points,
    forbidden: file.forbidden,
    players: t.players.map((p, index) => ({
      id: p.id,
      name: file.players[index]!.name,
      rating: p.rating,
      points: p.score,
      rank: p.rankIndex + 1,
      matches: p.matches,
    })),
  });
}
