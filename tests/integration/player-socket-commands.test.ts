/**
 * The player socket's command path: a submission's ack always reaches the player before
 * any frame that tells its outcome (its verdict, the events frame with it), and every game command (move, resign, abort, impasse, berserk) counts against the
 * per-token moves limit, so replayed frames are refused cheaply.
 */
import { fastifyOptions, app as gateway, loadConfig } from '@shogi/gateway';
import type { ServerMessage } from '@shogi/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient } from '../../apps/server/src/client.js';
import { type Stack, silentLogger, startStack } from './harness.js';

const LIMIT = 5;

let stack: Stack;
/** A gateway whose decorations are on its root instance, so a test can wrap its game service. */
let open: FastifyInstance;
let openApi: ApiClient;
beforeAll(async () => {
  const rateLimits = { ...loadConfig({}).rateLimits, moves: { max: LIMIT, windowMs: 60_000 } };
  stack = await startStack({ listen: true, config: { rateLimits } });
  open = Fastify(fastifyOptions(stack.config, silentLogger())) as unknown as FastifyInstance;
  await open.register(fp(gateway), { config: stack.config });
  openApi = new ApiClient(await open.listen({ host: '127.0.0.1', port: 0 }));
});
afterAll(async () => {
  await open?.close();
  await stack?.close();
});

async function setup() {
  const sente = await stack.api.createPlayer('alice');
  const gote = await stack.api.createPlayer('bob');
  const game = await stack.api.createGame({ sente: sente.id, gote: gote.id });
  return { sente, gote, game };
}

test('the ack of a move is sent before its verdict and the events frame with it, even when the verdict comes back first', async () => {
  const { sente, game } = await setup();
  const socket = await openApi.playerSocket(game.id, sente.token);
  // its catch-up read is done (GameCreated): what comes next comes live
  await socket.waitFor((m) => m.type === 'events');
  const games = open.games;
  const submit = games.submitMove;
  // the race made certain: the submission's answer is held until its verdict is in the log
  // and has had time to come back through Redis to this gateway's hub
  games.submitMove = async (gameId, player, move) => {
    const answer = await submit(gameId, player, move);
    for (;;) {
      const { events } = await openApi.events(gameId, answer.seq);
      if (events.some((e) => e.type === 'MoveAccepted' && e.payload.submittedSeq === answer.seq)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 100));
    return answer;
  };
  try {
    socket.send({ type: 'move', usi: '7g7f', ply: 0 });
    const ack = await socket.waitFor((m) => m.type === 'ack');
    await socket.waitFor((m) => m.type === 'verdict');
    const order = socket.received
      .filter((m) => m.type === 'ack' || m.type === 'verdict' || m.type === 'events')
      .map((m) => (m.type === 'events' ? `events:${m.events.map((e) => e.type).join(',')}` : m.type));
    expect(order).toEqual(['events:GameCreated', 'ack', 'events:MoveSubmitted,MoveAccepted', 'verdict']);
    expect(ack).toMatchObject({ seq: 2 });
  } finally {
    games.submitMove = submit;
    await socket.close();
  }
});

test('resign, abort and impasse frames count against the moves limit', async () => {
  const { gote, game } = await setup();
  const socket = await stack.api.playerSocket(game.id, gote.token);
  await socket.waitFor((m) => m.type === 'hello');
  socket.send({ type: 'resign', idempotencyKey: 'r1' });
  const resigned = await socket.waitFor((m) => m.type === 'ack');
  const answered = () => socket.received.filter((m) => m.type === 'ack' || m.type === 'error');
  const types = ['resign', 'abort', 'impasse'] as const;
  const frames = 2 * LIMIT;
  for (let i = 0; i < frames; i++) socket.send({ type: types[i % 3] as 'resign', idempotencyKey: 'r1' });
  await socket.waitFor(() => answered().length === 1 + frames);
  const answers = answered().slice(1) as ServerMessage[];
  const code = (m: ServerMessage) => (m.type === 'error' ? m.error.code : m.type);
  // the first resign used one of the LIMIT; the replay of it answers its seq, the other
  // commands are refused on the ended game, and every frame past the limit is RATE_LIMITED
  expect(answers.slice(0, LIMIT - 1).map(code)).toEqual(['ack', 'GAME_OVER', 'GAME_OVER', 'ack']);
  expect(answers[0]).toMatchObject({ type: 'ack', seq: resigned.type === 'ack' ? resigned.seq : -1 });
  expect(answers.slice(LIMIT - 1).map(code)).toEqual(Array(frames - LIMIT + 1).fill('RATE_LIMITED'));
  await socket.close();
});
