/**
 * tsshogi (MIT, the npm package bench/perft also uses) as the independent reader of our exports:
 * what it attaches to each move and the result it reads. Typed here by the little this needs:
 * its published types use extensionless imports, which this tests project's NodeNext resolution
 * cannot follow (bench/perft/tsconfig.json says the same).
 */
import * as untyped from 'tsshogi';

interface TsNode {
  readonly ply: number;
  readonly comment: string;
  /** `black` or `white`: the side to move after the node; a special move changes no position. */
  readonly nextColor: string;
  readonly move: { readonly usi?: string; readonly type?: string };
}
export interface TsRecord {
  readonly moves: readonly TsNode[];
}
interface Tsshogi {
  importKIF(text: string): TsRecord | Error;
  importKI2(text: string): TsRecord | Error;
  importCSA(text: string): TsRecord | Error;
  importJKFString(text: string): TsRecord | Error;
  readonly Move: abstract new (...args: never[]) => object;
}
const tsshogi = untyped as unknown as Tsshogi;

/** Reads an export as tsshogi does; its error is thrown. */
export function tsshogiRead(format: 'kif' | 'ki2' | 'csa' | 'jkf', text: string): TsRecord {
  const read =
    format === 'kif'
      ? tsshogi.importKIF(text)
      : format === 'ki2'
        ? tsshogi.importKI2(text)
        : format === 'jkf'
          ? tsshogi.importJKFString(text)
          : tsshogi.importCSA(text);
  if (read instanceof Error) throw read;
  return read;
}

const isMove = (n: TsNode): boolean => n.move instanceof tsshogi.Move;

/** The main line's moves as USI. */
export const tsMoves = (r: TsRecord): string[] => r.moves.filter(isMove).map((n) => n.move.usi as string);

/** `[ply, comment]` for each node with a comment (ply 0: the start). */
export const tsComments = (r: TsRecord): [number, string][] =>
  r.moves.filter((n) => n.comment !== '').map((n) => [n.ply, n.comment]);

export type Outcome = 'sente' | 'gote' | 'draw' | 'none';
export const otherSide = (side: 'sente' | 'gote'): 'sente' | 'gote' => (side === 'sente' ? 'gote' : 'sente');

/** The result tsshogi reads: the last node's special move, spoken of the side to move there. */
export function tsOutcome(r: TsRecord): Outcome {
  const last = r.moves.at(-1);
  if (last === undefined || isMove(last)) return 'none';
  const mover = last.nextColor === 'black' ? 'sente' : 'gote';
  switch (last.move.type) {
    case 'resign':
    case 'timeout':
    case 'foulLose':
    case 'mate':
      return otherSide(mover);
    case 'foulWin':
    case 'enteringOfKing':
      return mover;
    case 'repetitionDraw':
    case 'impass':
    case 'draw':
    case 'maxMoves':
      return 'draw';
    default:
      return 'none';
  }
}
