/**
 * A Swiss continued from another program's TRF (`ImportSwiss`, `readSwissTrf`): the fixtures
 * of `tests/fixtures/swiss-dutch` (paired by bbpPairings) cut after a round, imported, and the
 * next round paired here is the one bbpPairings paired; the reasons a file is refused.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairingKey, pairingsInFile, parseTrf, roundsInFile, trfAfterRound } from '@shogi/swiss';
import { describe, expect, it } from 'vitest';
import {
  currentSwissRound,
  decideTournament,
  nextSwissRoundAt,
  pairSwissRound,
  readSwissTrf,
  swissTrf,
  type TournamentState,
  type TournamentTerms,
} from '../src/index.js';
import { ARENA_TERMS, at, createdWith, entrant, run, T0 } from './helpers.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/swiss-dutch');
const fixture = (name: string) => parseTrf(readFileSync(join(FIXTURES, name), 'latin1'));

const swissTerms = (nbRounds: number): Partial<TournamentTerms> => ({
  format: 'swiss',
  berserkable: false,
  streakable: false,
  maxPlayers: 300,
  swiss: { nbRounds, roundIntervalSeconds: 60, forbiddenPairings: [] },
});

/** A created Swiss with `text` imported (player ids = the file's names), then started. */
function imported(text: string, nbRounds: number): TournamentState {
  const read = readSwissTrf(text, nbRounds);
  if (!read.ok) throw new Error(read.reason);
  const { players, cells, rounds, initialColor, forbidden } = read.value;
  const id = (n: number | null) => (n === null ? null : players[n]!.name);
  return run(
    [
      {
        type: 'ImportSwiss',
        by: 'host',
        players: players.map((p) => entrant(p.name, p.rating)),
        cells: cells.map((row) => row.map((c) => ({ ...c, opponent: id(c.opponent) }))),
        rounds,
        initialColor,
        forbidden: forbidden.map(([a, b]) => [players[a]!.name, players[b]!.name] as const),
        now: at(-20),
      },
      { type: 'StartTournament', now: T0 },
    ],
    createdWith(swissTerms(nbRounds)),
  ).state;
}

/** The round the server pairs next, as a pairing key in the file's numbers. */
function serverRound(state: TournamentState, names: readonly string[]): string {
  const proposed = pairSwissRound(state);
  const pairings = proposed.map((p, i) => ({ ...p, gameId: `g${i}` }));
  const after = run([{ type: 'PairPlayers', pairings, now: at(1) }], state).state;
  const number = (id: string) => names.indexOf(id);
  const round = currentSwissRound(after);
  return pairingKey([
    ...pairings.map((p) => ({ white: number(p.sente), black: number(p.gote) })),
    ...(after.byes.get(round) ?? []).map((id) => ({ white: number(id), black: null })),
  ]);
}

describe('a Swiss continued from a TRF', () => {
  for (const [name, cuts] of [
    ['case03.trf', [1, 3, 5]],
    ['case00.trf', [2, 4]],
    ['case07.trf', [3]],
  ] as const)
    it(`${name}: cut after a round, imported, the next round paired as bbpPairings paired it`, () => {
      const file = fixture(name);
      const total = roundsInFile(file);
      const names = file.players.map((p) => p.name);
      for (const k of cuts) {
        const text = trfAfterRound(file, k, total);
        const s = imported(text, total);
        expect(currentSwissRound(s)).toBe(k);
        // the first round here is due at the start
        expect(nextSwissRoundAt(s)?.toISOString()).toBe(T0.toISOString());
        expect(serverRound(s, names), `${name} round ${k + 1}`).toBe(pairingKey(pairingsInFile(file, k)));
        // the server's own TRF of the event pairs the same (its numbering and cells kept)
        const again = parseTrf(swissTrf(s, { nextRound: true }).text);
        expect(again.players.map((p) => p.name)).toEqual(names);
      }
    });

  it('a late entrant is numbered by rating among the imported players', () => {
    const file = fixture('case03.trf');
    let s = imported(trfAfterRound(file, 2, 7), 7);
    s = run(
      [
        {
          type: 'JoinTournament',
          player: entrant('late', 2200),
          passwordHash: null,
          ratedGames: 0,
          now: at(5),
        },
      ],
      s,
    ).state;
    const names = parseTrf(swissTrf(s).text).players.map((p) => p.name);
    expect(names.indexOf('late')).toBe(3);
    expect(names.filter((n) => n !== 'late')).toEqual(file.players.map((p) => p.name));
  });

  it('refuses a file that cannot continue the event, with the reason', () => {
    const text = trfAfterRound(fixture('case03.trf'), 2, 7);
    const reason = (t: string, rounds = 7) => {
      const r = readSwissTrf(t, rounds);
      return r.ok ? null : r.reason;
    };
    expect(reason(text)).toBeNull();
    expect(reason('hello')).toMatch(/no player/);
    expect(reason(text, 9)).toMatch(/XXR is 7 rounds; this Swiss has 9/);
    expect(reason(text.replace('\r001    2 ', '\r001    1 '))).toMatch(/repeated/);
    expect(reason(`${text}BBW  2.0\r`)).toMatch(/scores 1, ½ and 0/);
    expect(reason(`${text}XXA\r`)).toMatch(/accelerations/);
    expect(reason(text.replace('Test0002 Player0002', 'Test0001 Player0001'))).toMatch(/twice/);
    // a player's points that do not add up
    const lines = text.split('\r');
    const first = lines.findIndex((l) => l.startsWith('001    1 '));
    lines[first] = `${lines[first]!.slice(0, 80)} 9.0${lines[first]!.slice(84)}`;
    expect(reason(lines.join('\r'))).toMatch(/points of player 1/);

    // the aggregate: the creator, before the start, once, with rounds left
    const read = readSwissTrf(text, 7);
    if (!read.ok) throw new Error(read.reason);
    const { players, cells } = read.value;
    const base = {
      type: 'ImportSwiss' as const,
      by: 'host',
      players: players.map((p) => entrant(p.name, p.rating)),
      cells: cells.map((row) =>
        row.map((c) => ({ ...c, opponent: c.opponent === null ? null : players[c.opponent]!.name })),
      ),
      rounds: 2,
      initialColor: 'w' as const,
      forbidden: [],
      now: at(-20),
    };
    const created = createdWith(swissTerms(7));
    expect(decideTournament(base, created).ok).toBe(true);
    const code = (d: ReturnType<typeof decideTournament>) => (d.ok ? 'ok' : d.rejection.code);
    expect(code(decideTournament({ ...base, by: 'someone' }, created))).toBe('not_creator');
    expect(code(decideTournament(base, createdWith({ ...ARENA_TERMS })))).toBe('invalid_trf');
    expect(code(decideTournament(base, createdWith(swissTerms(3))))).toBe('ok');
    expect(code(decideTournament({ ...base, rounds: 3 }, createdWith(swissTerms(3))))).toBe('invalid_trf');
    const once = run([base], created).state;
    expect(code(decideTournament(base, once))).toBe('import_closed');
    const started = run([{ type: 'StartTournament', now: T0 }], created).state;
    expect(code(decideTournament(base, started))).toBe('import_closed');
  });
});
