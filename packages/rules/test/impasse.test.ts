import { describe, expect, test } from 'vitest';
import { assessImpasse, PositionHistory, parseSfen } from '../src/index.js';

const assess = (sfen: string) => {
  const pos = parseSfen(sfen);
  if (!pos.ok) throw new Error(pos.error.message);
  return assessImpasse(pos.value);
};

// Sente: king on 5b, ten pieces in gote's camp (rows a-c). Points: pieces in camp plus hand,
// rook/bishop 5, others 1; sente needs 28, gote 27 (RULES.md, impasse).
describe('27-point declaration', () => {
  test.each([
    // 2 rooks + 2 bishops (20) + 8 golds/silvers (8) = 28 in camp: valid for sente
    ['valid, 28 points', 'RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 b - 1', true, 28],
    // one bishop fewer in camp but in hand: camp pieces 10, points still 28
    ['valid with the hand counting', 'RRBGGGGS1/4K4/SSS6/9/9/9/9/9/k8 b B 1', true, 28],
    // 2 rooks, a bishop (15) and 12 small pieces: 27 points is one short for sente
    ['27 points is short for sente', 'RRBGGGGS1/4K4/SSSPPPP2/9/9/9/9/9/k8 b - 1', false, 27],
    ['only nine pieces in camp', 'RRBBGGGG1/4K4/S8/9/9/9/9/9/k8 b 3S 1', false, 28],
    ['king outside the camp', 'RRBBGGGG1/9/SSSS5/4K4/9/9/9/9/k8 b - 1', false, 28],
  ])('%s', (_name, sfen, valid, points) => {
    const a = assess(sfen);
    expect(a.valid).toBe(valid);
    expect(a.points).toBe(points);
  });

  test('gote needs 27', () => {
    // ten pieces in sente's camp worth 22, plus a bishop in hand: 27 is enough for gote
    expect(assess('K8/9/9/9/9/9/ss7/4k4/rrbggggs1 w b 1')).toMatchObject({ valid: true, piecesInCamp: 10, points: 27 });
    expect(assess('K8/9/9/9/9/9/ss7/4k4/rrbggggs1 w 4p 1')).toMatchObject({ valid: false, points: 26 });
  });

  test('a king in check may not declare', () => {
    // gote's gold on 5c checks the king on 5b; 28 points and 11 pieces otherwise suffice
    const a = assess('RRBBGGG2/4K4/SSSSg4/9/9/9/9/9/k8 b P 1');
    expect(a).toMatchObject({ inCheck: true, valid: false });
  });

  test('a game: a right declaration wins, a wrong one loses', () => {
    const right = parseSfen('RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 b - 1');
    const wrong = parseSfen('RRBBGGGG1/9/SSSS5/4K4/9/9/9/9/k8 b - 1');
    if (!right.ok || !wrong.ok) throw new Error('bad fixture');
    expect(new PositionHistory(right.value).declareImpasse()).toMatchObject({
      ok: true,
      value: { status: 'impasse', winner: 0 },
    });
    expect(new PositionHistory(wrong.value).declareImpasse()).toMatchObject({
      ok: true,
      value: { status: 'impasse', winner: 1 },
    });
  });
});
