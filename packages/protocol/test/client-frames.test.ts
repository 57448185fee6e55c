import { describe, expect, test } from 'vitest';
import { parseClientMessage } from '../src/index.js';

describe('parseClientMessage', () => {
  test.each([
    ['{"type":"move","usi":"7g7f","ply":0}', { type: 'move', usi: '7g7f', ply: 0 }],
    ['{"type":"resign","idempotencyKey":"r-1"}', { type: 'resign', idempotencyKey: 'r-1' }],
    ['{"type":"abort"}', { type: 'abort' }],
    ['{"type":"impasse"}', { type: 'impasse' }],
    ['{"type":"takeback","action":"accept"}', { type: 'takeback', action: 'accept' }],
  ])('accepts %s', (text, value) => {
    expect(parseClientMessage(text)).toEqual({ ok: true, value });
  });

  // each refusal names the mistake, not the schema
  test.each([
    ['{"type":"move","usi":', 'MALFORMED_JSON', /^the frame is not valid JSON: /],
    [
      '[]',
      'BAD_REQUEST',
      'the frame must be a JSON object with a "type" (one of move, resign, abort, impasse, berserk, takeback)',
    ],
    [
      '"move"',
      'BAD_REQUEST',
      'the frame must be a JSON object with a "type" (one of move, resign, abort, impasse, berserk, takeback)',
    ],
    [
      '{"usi":"7g7f","ply":0}',
      'BAD_REQUEST',
      'the frame needs a string "type": one of move, resign, abort, impasse, berserk, takeback',
    ],
    [
      '{"type":"hello"}',
      'BAD_REQUEST',
      'unknown frame type "hello": send one of move, resign, abort, impasse, berserk, takeback',
    ],
    [
      '{"type":"toString"}',
      'BAD_REQUEST',
      'unknown frame type "toString": send one of move, resign, abort, impasse, berserk, takeback',
    ],
    ['{"type":"move","usi":"7g7f","ply":0,"promote":true}', 'BAD_REQUEST', 'frame has an unknown field "promote"'],
    ['{"type":"resign","reason":"bored"}', 'BAD_REQUEST', 'frame has an unknown field "reason"'],
    ['{"type":"move","usi":"7g7f"}', 'BAD_REQUEST', 'frame is missing the field "ply"'],
    ['{"type":"move","usi":"7g7f","ply":"0"}', 'BAD_REQUEST', 'frame/ply must be an integer'],
    ['{"type":"move","usi":"7g7f","ply":1.5}', 'BAD_REQUEST', 'frame/ply must be an integer'],
    ['{"type":"move","usi":"7g7f","ply":-1}', 'BAD_REQUEST', 'frame/ply must be at least 0'],
    ['{"type":"resign","idempotencyKey":""}', 'BAD_REQUEST', 'frame/idempotencyKey must not be empty'],
    [
      '{"__proto__":{"admin":true},"type":"resign"}',
      'BAD_REQUEST',
      'the frame has a "__proto__" key, which no frame accepts',
    ],
  ])('refuses %s', (text, code, detail) => {
    const parsed = parseClientMessage(text);
    expect(parsed).toMatchObject({ ok: false, code });
    if (!parsed.ok) expect(parsed.detail).toMatch(detail);
  });
});
