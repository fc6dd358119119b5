// Generic traversal of the expression AST. `walk` uses an explicit stack, so very deep trees (a
// 5,000-term `1+1+…` chain is a 5,000-deep BinOp spine) never exhaust the call stack.
import type { Comprehension, Expr, Name, Slice, Target } from "./ast";

export type Node = Expr | Slice;

function forEachTargetName(target: Target, fn: (child: Name) => void): void {
  if (target.kind === "Name") {
    fn(target);
    return;
  }
  const stack: Target[] = [target];
  for (let t = stack.pop(); t !== undefined; t = stack.pop()) {
    if (t.kind === "Name") fn(t);
    else for (let i = t.elts.length - 1; i >= 0; i--) stack.push(t.elts[i]!);
  }
}

function forEachInComprehensions(generators: readonly Comprehension[], fn: (child: Node) => void): void {
  for (const g of generators) {
    forEachTargetName(g.target, fn);
    fn(g.iter);
    for (const cond of g.ifs) fn(cond);
  }
}

/**
 * Calls `fn` on each direct child of `node`, in source order. Comprehension targets are reported
 * as their Name nodes (TargetList groupings are not nodes of their own here).
 */
export function forEachChild(node: Node, fn: (child: Node) => void): void {
  switch (node.kind) {
    case "Constant":
    case "Name":
    case "Path":
    case "Error":
      return;
    case "Attribute":
      fn(node.value);
      return;
    case "Subscript":
      fn(node.value);
      fn(node.index);
      return;
    case "Slice":
      if (node.lower !== null) fn(node.lower);
      if (node.upper !== null) fn(node.upper);
      if (node.step !== null) fn(node.step);
      return;
    case "Call":
      fn(node.func);
      for (const a of node.args) fn(a);
      for (const k of node.keywords) fn(k.value);
      return;
    case "UnaryOp":
      fn(node.operand);
      return;
    case "BinOp":
      fn(node.left);
      fn(node.right);
      return;
    case "BoolOp":
      for (const v of node.values) fn(v);
      return;
    case "Compare":
      fn(node.left);
      for (const c of node.comparators) fn(c);
      return;
    case "IfExp":
      fn(node.body);
      fn(node.test);
      fn(node.orelse);
      return;
    case "List":
    case "Tuple":
      for (const e of node.elts) fn(e);
      return;
    case "Dict":
      for (let i = 0; i < node.keys.length; i++) {
        fn(node.keys[i]!);
        const value = node.values[i];
        if (value !== undefined) fn(value);
      }
      return;
    case "ListComp":
    case "GeneratorExp":
      fn(node.elt);
      forEachInComprehensions(node.generators, fn);
      return;
  }
}

export interface Visitor {
  /** Called before the children; return false to skip them (and the matching `leave`). */
  enter?(node: Node, parent: Node | null): boolean | undefined;
  /** Called after all children. */
  leave?(node: Node, parent: Node | null): void;
}

interface Frame {
  readonly node: Node;
  readonly parent: Node | null;
  entered: boolean;
}

/** Depth-first traversal in source order, iterative (no recursion). */
export function walk(root: Node, visitor: Visitor): void {
  const stack: Frame[] = [{ node: root, parent: null, entered: false }];
  const children: Node[] = [];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.entered) {
      stack.pop();
      visitor.leave?.(frame.node, frame.parent);
      continue;
    }
    frame.entered = true;
    if (visitor.enter?.(frame.node, frame.parent) === false) {
      stack.pop();
      continue;
    }
    children.length = 0;
    forEachChild(frame.node, (c) => children.push(c));
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ node: children[i]!, parent: frame.node, entered: false });
    }
  }
}
