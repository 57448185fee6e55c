/**
 * The analysis board's moves as a tree: the game's moves are the main line, and a move
 * played anywhere else starts a branch (or follows one already there). Each node keeps its
 * Japanese notation; positions are replayed from the root on demand. Pure: no DOM, no I/O.
 */
import { moveTo, type PositionHistory, parseUsi } from '@shogi/rules';
import { newGame } from '../../shogi/model.js';
import { japaneseMove } from '../../shogi/notation.js';

export interface TreeNode {
  readonly id: number;
  /** the move that led here (null at the root) */
  readonly usi: string | null;
  readonly japanese: string;
  /** moves from the root */
  readonly ply: number;
  readonly parent: TreeNode | null;
  /** the first child continues the line; the others are branches */
  readonly children: TreeNode[];
  /** on the game's own line */
  readonly mainline: boolean;
}

export class MoveTree {
  readonly root: TreeNode;
  private nextId = 1;
  private readonly byId = new Map<number, TreeNode>();

  readonly initialSfen: string;

  constructor(initialSfen: string, mainline: readonly string[]) {
    this.initialSfen = initialSfen;
    this.root = { id: 0, usi: null, japanese: '', ply: 0, parent: null, children: [], mainline: true };
    this.byId.set(0, this.root);
    let node = this.root;
    const game = newGame(initialSfen, 'default');
    for (const usi of mainline) {
      const next = this.add(node, game, usi, true);
      if (!next) break;
      node = next;
    }
  }

  node(id: number): TreeNode | null {
    return this.byId.get(id) ?? null;
  }

  /** The nodes from the root to `node`, both included. */
  path(node: TreeNode): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | null = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The position at `node`, replayed from the root. */
  gameAt(node: TreeNode): PositionHistory {
    const game = newGame(this.initialSfen, 'default');
    for (const n of this.path(node)) if (n.usi) game.playUsi(n.usi);
    return game;
  }

  /** Plays `usi` at `node`: the child already there, or a new branch; null when it is illegal. */
  play(node: TreeNode, usi: string): TreeNode | null {
    const known = node.children.find((c) => c.usi === usi);
    if (known) return known;
    return this.add(node, this.gameAt(node), usi, false);
  }

  /** The main-line node a branch left the game from (the node itself when on the main line). */
  mainlineAncestor(node: TreeNode): TreeNode {
    let n = node;
    while (!n.mainline && n.parent) n = n.parent;
    return n;
  }

  /** The main-line node after `ply` moves (clamped to the game). */
  mainlineAt(ply: number): TreeNode {
    let n = this.root;
    while (n.ply < ply && n.children[0]?.mainline) n = n.children[0];
    return n;
  }

  /** The end of the line through `node`: first children followed. */
  lineEnd(node: TreeNode): TreeNode {
    let n = node;
    while (n.children[0]) n = n.children[0];
    return n;
  }

  private add(parent: TreeNode, game: PositionHistory, usi: string, mainline: boolean): TreeNode | null {
    const previous = parent.usi ? moveTo(parseUsi(parent.usi)) : null;
    const japanese = japaneseMove(game, usi, previous);
    if (!game.playUsi(usi).ok) return null;
    const node: TreeNode = { id: this.nextId++, usi, japanese, ply: parent.ply + 1, parent, children: [], mainline };
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }
}
