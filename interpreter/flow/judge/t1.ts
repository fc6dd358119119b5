// The deterministic tier (T1) of the judge (docs/reference/runtime.md §25.3): a deterministic
// predicate's statement is an expression over the staged files with only file_exists,
// file_contains, len, min, max, bool, int and str, and decides met or not_met with confidence 10.
// As the reference: a path literal outside artifacts/ and modified/ and a name outside that
// surface are errors of the whole call; an expression that raises is not_met, with the reason.
import type { Expr, Target } from "../../../grammar/ast";
import { parseExpression } from "../../../grammar/index";
import { walk } from "../../../grammar/walk";
import { PyError } from "../../../stdlib/values/errors";
import { strRepr } from "../../../stdlib/values/repr";
import { truthy } from "../../../stdlib/values/truth";
import { compileExpression } from "../../eval/compile";
import { evaluate } from "../../eval/evaluate";
import type { StagedTree } from "./staged-tree";

const PATHFUL = new Set(["file_exists", "file_contains"]);
const SURFACE = new Set([...PATHFUL, "len", "min", "max", "bool", "int", "str"]);
const BUCKETS = ["artifacts/", "modified/"];

/** One tier's verdict on a predicate; `n/a` (confidence null) is the deterministic tier passing an interpretive predicate on. */
export interface TierRecord {
  readonly tier: "T1" | "T2";
  readonly verdict: "met" | "not_met" | "ambiguous" | "n/a";
  readonly confidence: number | null;
  readonly reason: string;
}

/** A failure that ends the whole stratum_judge call: its `error_type` is the reference's class name. */
export class JudgeError extends Error {
  constructor(
    readonly errorType: "PredicatePathError" | "PredicateBuiltinError",
    message: string,
  ) {
    super(message);
  }
}

/** The verdict of one deterministic predicate over the staged tree; throws JudgeError. */
export function evaluateT1(id: string, statement: string, tree: StagedTree): TierRecord {
  const parsed = parseExpression(statement);
  const expr = parsed.diagnostics.length === 0 ? parsed.expr : null;
  if (expr === null || hasPath(expr)) {
    // Not a Python expression (a `$` path is stratumc's own syntax): Python's compile() raises.
    return notMet("invalid syntax (<t1>, line 1)");
  }
  checkPathLiterals(expr);
  const unknown = freeNames(expr).find((n) => !SURFACE.has(n));
  if (unknown !== undefined) {
    throw new JudgeError(
      "PredicateBuiltinError",
      `predicate '${id}' uses name not in T1 v1 surface: name '${unknown}' is not defined`,
    );
  }
  let value: ReturnType<typeof evaluate>;
  try {
    value = evaluate(compileExpression(expr), new Map(), { files: tree.access() });
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    rejectOutside(tree);
    return notMet(e.message);
  }
  rejectOutside(tree);
  return {
    tier: "T1",
    verdict: truthy(value) ? "met" : "not_met",
    confidence: 10,
    reason: "deterministic check",
  };
}

function notMet(message: string): TierRecord {
  return { tier: "T1", verdict: "not_met", confidence: 10, reason: `t1 eval raised: ${message}` };
}

function hasPath(expr: Expr): boolean {
  let found = false;
  walk(expr, {
    enter(node) {
      if (node.kind === "Path") found = true;
    },
  });
  return found;
}

/** The reference's walk before any I/O: the first argument of file_exists/file_contains, when a literal. */
function checkPathLiterals(expr: Expr): void {
  walk(expr, {
    enter(node) {
      if (node.kind !== "Call" || node.func.kind !== "Name" || !PATHFUL.has(node.func.id)) return;
      const first = node.args[0];
      if (first === undefined || first.kind !== "Constant" || typeof first.value !== "string") return;
      const path = first.value;
      if (!BUCKETS.some((b) => path.startsWith(b))) {
        throw new JudgeError(
          "PredicatePathError",
          `deterministic predicate references path outside staging tree: ${strRepr(path)} (expected prefix 'artifacts/' or 'modified/')`,
        );
      }
    },
  });
}

/** A computed path that left both buckets: the reference's run-time check refuses it. */
function rejectOutside(tree: StagedTree): void {
  const [path] = tree.outside;
  if (path === undefined) return;
  throw new JudgeError(
    "PredicatePathError",
    `runtime path rejected: ${strRepr(path)} (expected 'artifacts/' or 'modified/')`,
  );
}

/** Names the expression reads that no comprehension binds. */
function freeNames(expr: Expr): string[] {
  const bound = new Set<string>();
  const used: string[] = [];
  walk(expr, {
    enter(node) {
      if (node.kind === "ListComp" || node.kind === "GeneratorExp") {
        for (const g of node.generators) collectTargets(g.target, bound);
      }
      if (node.kind === "Name") used.push(node.id);
    },
  });
  return used.filter((n) => !bound.has(n));
}

function collectTargets(target: Target, into: Set<string>): void {
  if (target.kind === "Name") into.add(target.id);
  else for (const t of target.elts) collectTargets(t, into);
}
