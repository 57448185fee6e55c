import { parseSfen } from '@shogi/rules';
import { describe, expect, it } from 'vitest';
import { shouldDeclareImpasse } from '../src/index.js';

const position = (sfen: string) => {
  const pos = parseSfen(sfen);
  if (!pos.ok) throw new Error(pos.error.message);
  return pos.value;
};

describe('shouldDeclareImpasse', () => {
  it('declares exactly when the rules grant the declaration to the side to move', () => {
    // sente: king on 5b, two rooks, two bishops and eight small pieces in gote's camp: 28 points
    expect(shouldDeclareImpasse(position('RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 b - 1'))).toBe(true);
    // the hand counts towards the points
    expect(shouldDeclareImpasse(position('RRBGGGGS1/4K4/SSS6/9/9/9/9/9/k8 b B 1'))).toBe(true);
    // gote needs 27
    expect(shouldDeclareImpasse(position('K8/9/9/9/9/9/ss7/4k4/rrbggggs1 w b 1'))).toBe(true);
  });

  it('never on a hunch: short of points, of pieces, with the king outside or in check', () => {
    expect(shouldDeclareImpasse(position('RRBGGGGS1/4K4/SSSPPPP2/9/9/9/9/9/k8 b - 1'))).toBe(false);
    expect(shouldDeclareImpasse(position('RRBBGGGG1/4K4/S8/9/9/9/9/9/k8 b 3S 1'))).toBe(false);
    expect(shouldDeclareImpasse(position('RRBBGGGG1/9/SSSS5/4K4/9/9/9/9/k8 b - 1'))).toBe(false);
    expect(shouldDeclareImpasse(position('RRBBGGG2/4K4/SSSSg4/9/9/9/9/9/k8 b P 1'))).toBe(false);
  });

  it('is for the side to move only: the same board with the other side to move is not a declaration', () => {
    expect(shouldDeclareImpasse(position('RRBBGGGG1/4K4/SSSS5/9/9/9/9/9/k8 w - 1'))).toBe(false);
  });
});
