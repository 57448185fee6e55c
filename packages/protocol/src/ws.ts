/**
 * Messages of the player WebSocket `/api/games/:id/ws`. Every frame is one JSON object
 * with a `type`; unknown types and fields are answered with an `error` frame.
 */
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { ErrorResponse, IdempotencyKey, Ply, Side, SocketTicket, Usi, WireEvent } from './http.js';
import { describeSchemaFault, typeboxFault } from './schema-errors.js';

const closed = { additionalProperties: false } as const;

// --- client -> server
export const ClientMove = Type.Object(
  {
    type: Type.Literal('move'),
    usi: Usi,
    ply: Ply,
    idempotencyKey: Type.Optional(IdempotencyKey),
    blur: Type.Optional(Type.Boolean()),
  },
  closed,
);
export const ClientResign = Type.Object(
  { type: Type.Literal('resign'), idempotencyKey: Type.Optional(IdempotencyKey) },
  closed,
);
/** Abort before your first move; declare impasse (27-point rule) on your turn. */
export const ClientAbort = Type.Object(
  { type: Type.Literal('abort'), idempotencyKey: Type.Optional(IdempotencyKey) },
  closed,
);
export const ClientImpasse = Type.Object(
  { type: Type.Literal('impasse'), idempotencyKey: Type.Optional(IdempotencyKey) },
  closed,
);
/** Berserk in an arena game before your first move (the HTTP berserk routes' twin). */
export const ClientBerserk = Type.Object(
  { type: Type.Literal('berserk'), idempotencyKey: Type.Optional(IdempotencyKey) },
  closed,
);
/** Propose a takeback, accept or decline the opponent's, or withdraw one's own (`decline`). */
export const ClientTakeback = Type.Object(
  {
    type: Type.Literal('takeback'),
    action: Type.Union([Type.Literal('propose'), Type.Literal('accept'), Type.Literal('decline')]),
  },
  closed,
);
export const ClientMessage = Type.Union([
  ClientMove,
  ClientResign,
  ClientAbort,
  ClientImpasse,
  ClientBerserk,
  ClientTakeback,
]);
export type ClientMessage = Static<typeof ClientMessage>;

// --- server -> client
/** First frame: who you are and the seq the catch-up below starts after. */
export const ServerHello = Type.Object(
  { type: Type.Literal('hello'), gameId: Type.String(), side: Side, lastSeq: Type.Integer() },
  closed,
);
/** The submission is durable (the WebSocket twin of HTTP 202). */
export const ServerAck = Type.Object(
  {
    type: Type.Literal('ack'),
    seq: Type.Integer(),
    ply: Type.Optional(Ply),
    usi: Type.Optional(Type.String()),
    idempotencyKey: Type.Optional(Type.String()),
  },
  closed,
);
/** The worker's verdict on one of your submissions. */
export const ServerVerdict = Type.Object(
  {
    type: Type.Literal('verdict'),
    submittedSeq: Type.Integer(),
    seq: Type.Integer(),
    ply: Type.Integer(),
    usi: Type.String(),
    accepted: Type.Boolean(),
    reason: Type.Optional(Type.String()),
  },
  closed,
);
/** New events of the game, in seq order, with no gaps after what you have seen. */
export const ServerEvents = Type.Object({ type: Type.Literal('events'), events: Type.Array(WireEvent) }, closed);
export const ServerError = Type.Object(
  {
    type: Type.Literal('error'),
    error: ErrorResponse,
    /** echoes the client's idempotency key or ply when the failing frame had one */
    ply: Type.Optional(Type.Integer()),
    idempotencyKey: Type.Optional(Type.String()),
  },
  closed,
);
export const ServerMessage = Type.Union([ServerHello, ServerAck, ServerVerdict, ServerEvents, ServerError]);
export type ServerMessage = Static<typeof ServerMessage>;
export type ServerVerdict = Static<typeof ServerVerdict>;
export type ServerError = Static<typeof ServerError>;

/** Default limit of one client frame, in bytes; the gateway config may lower it. */
export const MAX_CLIENT_FRAME = 1024;

export const SocketQuery = Type.Object(
  {
    ticket: Type.Optional(SocketTicket),
    after: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'last seq seen; the rest is replayed' })),
  },
  { additionalProperties: false },
);

/** Each frame type's own check, so that a refusal names the field of the type that was sent. */
const FRAME_CHECKS = {
  move: Compile(ClientMove),
  resign: Compile(ClientResign),
  abort: Compile(ClientAbort),
  impasse: Compile(ClientImpasse),
  berserk: Compile(ClientBerserk),
  takeback: Compile(ClientTakeback),
} as const;
const FRAME_TYPES = Object.keys(FRAME_CHECKS).join(', ');

type FrameRefusal = { ok: false; code: 'MALFORMED_JSON' | 'BAD_REQUEST'; detail: string };
const refuse = (detail: string): FrameRefusal => ({ ok: false, code: 'BAD_REQUEST', detail });

/** Parses and validates one client frame: the value, or a reason the client can act on for an error frame. */
export function parseClientMessage(text: string): { ok: true; value: ClientMessage } | FrameRefusal {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? `: ${err.message}` : '';
    return { ok: false, code: 'MALFORMED_JSON', detail: `the frame is not valid JSON${reason}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return refuse(`the frame must be a JSON object with a "type" (one of ${FRAME_TYPES})`);
  if (Object.hasOwn(parsed, '__proto__')) return refuse('the frame has a "__proto__" key, which no frame accepts');
  const type: unknown = (parsed as { type?: unknown }).type;
  if (typeof type !== 'string') return refuse(`the frame needs a string "type": one of ${FRAME_TYPES}`);
  if (!Object.hasOwn(FRAME_CHECKS, type))
    return refuse(`unknown frame type ${JSON.stringify(type.slice(0, 32))}: send one of ${FRAME_TYPES}`);
  const check = FRAME_CHECKS[type as keyof typeof FRAME_CHECKS];
  if (check.Check(parsed)) return { ok: true, value: parsed as ClientMessage };
  const first = [...check.Errors(parsed)][0];
  return refuse(first === undefined ? 'the frame is invalid' : describeSchemaFault(typeboxFault(first, 'frame')));
}
