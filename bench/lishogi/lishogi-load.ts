/**
 * The lishogi path: pairs of a bot account (Bot API, `bot:play`, upgraded) and a person (Board
 * API, `board:play`), each with its event stream open for the whole run, as their clients keep
 * it. A slot's games start as lishogi's start: the person challenges the bot on lishogi's route,
 * the bot accepts from its event stream, both take the game from their `gameStart` and open
 * their game streams; then each moves with a move POST as soon as its stream shows its turn.
 * Distinct accounts per slot: the one-real-time-game rule holds for bot accounts here.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { EventLines } from './event-lines.js';
import type { Json, LishogiHttp } from './http-client.js';
import type { Phase } from './phase.js';
import { ScriptedGame, type Side, type Transport } from './scripted-game.js';
import type { SlotContext } from './slot.js';

/** The same clock on both paths: real time, so the one-game rule and the clock's work apply. */
export const LISHOGI_CLOCK = 'clock.limit=600&clock.byoyomi=10';

interface Account {
  readonly username: string;
  readonly token: string;
  readonly events: EventLines;
}

export interface LishogiPair {
  readonly bot: Account;
  readonly person: Account;
  /** the games this pair has played (a gameStart seen again is not a new game) */
  readonly played: Set<string>;
}

async function expect201(answer: Promise<{ status: number; body: Json }>, what: string): Promise<Json> {
  const { status, body } = await answer;
  if (status !== 201 && status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** An account as its owner makes one for a lishogi client: register, log in, a personal token. */
async function account(http: LishogiHttp, username: string, scopes: readonly string[]): Promise<Account> {
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  await expect201(http.post('/api/accounts', null, { username, password }), `account ${username}`);
  const session = await expect201(http.post('/api/session', null, { username, password }), `login ${username}`);
  const made = await expect201(
    http.post('/api/tokens', session.token, { name: 'lishogi bench', scopes: [...scopes] }),
    `token of ${username}`,
  );
  if (scopes.includes('bot:play'))
    await expect201(http.post('/api/bot/account/upgrade', made.token), `bot upgrade of ${username}`);
  return { username, token: made.token, events: await EventLines.open(http, made.token) };
}

/** `count` pairs, made `parallel` at a time (each account costs two password hashes). */
export async function lishogiPairs(http: LishogiHttp, count: number, parallel = 4): Promise<LishogiPair[]> {
  const tag = randomBytes(3).toString('hex');
  const pairs: LishogiPair[] = [];
  for (let from = 0; from < count; from += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - from) }, async (_, j) => {
      const i = from + j;
      const [bot, person] = await Promise.all([
        account(http, `lb${i}bot_${tag}`, ['bot:play']),
        account(http, `lb${i}person_${tag}`, ['board:play']),
      ]);
      return { bot, person, played: new Set<string>() };
    });
    pairs.push(...(await Promise.all(batch)));
  }
  return pairs;
}

export function closeLishogiPairs(pairs: readonly LishogiPair[]): void {
  for (const { bot, person } of pairs) {
    bot.events.close();
    person.events.close();
  }
}

/** The slot's next game, from the person's challenge to both gameStarts; null when it could not start. */
async function startGame(
  http: LishogiHttp,
  pair: LishogiPair,
  botSente: boolean,
  phase: Phase,
): Promise<string | null> {
  const { bot, person } = pair;
  const challenge = `${LISHOGI_CLOCK}&color=${botSente ? 'gote' : 'sente'}`;
  const made = await http.post(`/api/challenge/${bot.username}`, person.token, challenge);
  if (made.status !== 200) {
    phase.problem(`challenge ${made.status} ${made.body?.code}`, JSON.stringify(made.body));
    return null;
  }
  const id = made.body.id as string;
  if ((await bot.events.take((l) => l.type === 'challenge' && l.challenge.id === id, 10_000)) === null) {
    phase.problem('no challenge line', `challenge ${id} not on the bot's event stream in 10 s`);
    return null;
  }
  const accepted = await http.post(`/api/challenge/${id}/accept`, bot.token);
  if (accepted.status !== 200) {
    phase.problem(`accept ${accepted.status} ${accepted.body?.code}`, JSON.stringify(accepted.body));
    return null;
  }
  const fresh = (l: Json) => l.type === 'gameStart' && !pair.played.has(l.game.id);
  const [botStart, personStart] = await Promise.all([
    bot.events.take(fresh, 10_000),
    person.events.take(fresh, 10_000),
  ]);
  if (botStart === null || personStart === null || botStart.game.id !== personStart.game.id) {
    phase.problem('no gameStart', `challenge ${id}: ${JSON.stringify([botStart, personStart])}`);
    return null;
  }
  pair.played.add(botStart.game.id);
  return botStart.game.id as string;
}

const plies = (moves: string): number => {
  if (moves === '') return 0;
  let n = 1;
  for (let at = moves.indexOf(' '); at >= 0; at = moves.indexOf(' ', at + 1)) n++;
  return n;
};

/** One game over the two game streams, to its end. */
async function playGame(
  ctx: SlotContext<LishogiHttp>,
  pair: LishogiPair,
  gameId: string,
  botSente: boolean,
  script: readonly string[],
) {
  const { client: http, phase } = ctx;
  const seats = botSente
    ? ([
        { ...pair.bot, api: 'bot' },
        { ...pair.person, api: 'board' },
      ] as const)
    : ([
        { ...pair.person, api: 'board' },
        { ...pair.bot, api: 'bot' },
      ] as const);
  const closers: (() => void)[] = [];
  const transport: Transport = {
    move(side, ply, usi, sentAt) {
      const seat = seats[side];
      http.post(`/api/${seat.api}/game/${gameId}/move/${usi}`, seat.token).then(
        (a) => {
          if (a.status === 200) phase.answered(sentAt, performance.now());
          else game.fail(`move POST ${a.status} ${a.body?.code}`, `${usi} at ply ${ply}: ${JSON.stringify(a.body)}`);
        },
        (err: unknown) => game.fail('move POST failed', String(err)),
      );
    },
    resign(side) {
      const seat = seats[side];
      // a game that ended meanwhile refuses it: nothing to count
      http.post(`/api/${seat.api}/game/${gameId}/resign`, seat.token).catch(() => {});
    },
    close: () => {
      for (const close of closers.splice(0)) close();
    },
  };
  const game = new ScriptedGame(script, phase, transport, [seats[0].api, seats[1].api], ctx.stallMs);
  let fulls = 0;
  const onLine = (side: Side) => (line: Json) => {
    if (line.type === 'gameState') game.seen(side, plies(line.moves), line.status !== 'started');
    else if (line.type === 'gameFull') {
      if (line.state.moves !== '') game.fail('gameFull after a move', JSON.stringify(line.state));
      else if (++fulls === 2) game.start();
    }
  };
  const opened = await Promise.all(
    ([0, 1] as const).map((side) =>
      http.stream(`/api/${seats[side].api}/game/stream/${gameId}`, seats[side].token, onLine(side), () =>
        game.ended(side),
      ),
    ),
  );
  for (const o of opened) {
    if (o.ok) closers.push(o.close);
    else game.fail(`stream ${o.answer.status}`, JSON.stringify(o.answer.body));
  }
  await game.done;
}

/** Slot `index` plays games until the phase is over; even slots give the bot sente. */
export async function lishogiSlot(ctx: SlotContext<LishogiHttp>, pair: LishogiPair, index: number): Promise<void> {
  const botSente = index % 2 === 0;
  for (let g = 0; !ctx.phase.over; g++) {
    const gameId = await startGame(ctx.client, pair, botSente, ctx.phase);
    if (gameId === null) return;
    ctx.phase.gamesStarted++;
    await playGame(ctx, pair, gameId, botSente, ctx.script(index, g));
  }
}
